import type { Counter, Gauge } from 'prom-client';
import type { AppContext, PlatformContext } from '../../platform/context.ts';
import { subscriber, type DomainSubscriber } from '../../domain/events.ts';

/**
 * The venue's business metrics (issue 25 §5), on the app's registry next to the platform's (server/platform/
 * observability/metrics.ts), only when metrics are on.
 *
 * Counted from the domain events (after commit, so a rolled-back command counts nothing): confirmations,
 * cancellations, expired holds, no-shows, payments by method and result, refunds by method and kind. Where no
 * domain event exists the narrowest hook is the business-event capture every command already calls after its
 * commit (server/modules/booking/events.ts `captureBusinessEvent`): holds created (every reservation starts as a
 * hold) and check-ins. Chat turns and e-mails are durable rows with a state, so they are read at each scrape
 * (`venue_chat_turns` by source and status, `venue_emails` by template and status): right across processes and
 * restarts. Counters are this process's since it started (Prometheus sums processes and handles restarts).
 */
export interface VenueMetrics {
  holds: Counter<'by'>;
  confirmations: Counter;
  cancellations: Counter<'by'>;
  holdsExpired: Counter;
  noShows: Counter;
  payments: Counter<'method' | 'result'>;
  refunds: Counter<'method' | 'kind'>;
  checkIns: Counter;
  /** A business event captured after its command committed (booking's `captureBusinessEvent`). */
  businessEvent(event: string, extra: Record<string, unknown>): void;
}

declare module '../../platform/context.ts' {
  interface AppContext {
    /** The venue's business counters; undefined when metrics are off. */
    venueMetrics: VenueMetrics | undefined;
  }
}

export function venueMetrics(platform: PlatformContext): Pick<AppContext, 'venueMetrics'> {
  const metrics = platform.metrics;
  if (!metrics) return { venueMetrics: undefined };
  const { client, registry } = metrics;
  const registers = [registry];
  const counters = {
    holds: new client.Counter({ name: 'venue_holds_total', help: 'Holds created (every reservation starts as one), by who booked: guest or staff.', labelNames: ['by'] as const, registers }),
    confirmations: new client.Counter({ name: 'venue_confirmations_total', help: 'Reservations confirmed.', registers }),
    cancellations: new client.Counter({ name: 'venue_cancellations_total', help: 'Reservations cancelled, by who cancelled: GUEST, STAFF or SYSTEM.', labelNames: ['by'] as const, registers }),
    holdsExpired: new client.Counter({ name: 'venue_holds_expired_total', help: 'Holds that ran out unpaid.', registers }),
    noShows: new client.Counter({ name: 'venue_no_shows_total', help: 'Reservations marked no-show.', registers }),
    payments: new client.Counter({ name: 'venue_payments_total', help: 'Payment outcomes by method (VNPAY, BANK_TRANSFER, CASH, CARD_ON_SITE) and result (captured, failed).', labelNames: ['method', 'result'] as const, registers }),
    refunds: new client.Counter({ name: 'venue_refunds_total', help: 'Refunds settled, by method and kind (full, partial).', labelNames: ['method', 'kind'] as const, registers }),
    checkIns: new client.Counter({ name: 'venue_check_ins_total', help: 'Guests checked in at the door.', registers }),
  };
  for (const by of ['guest', 'staff']) counters.holds.inc({ by }, 0);

  const chatTurns: Gauge<'source' | 'status'> = new client.Gauge({ name: 'venue_chat_turns', help: 'Chat-platform and WhatsApp turns by source and status (QUEUED … SENT, FAILED), as stored.', labelNames: ['source', 'status'] as const, registers });
  const emails: Gauge<'template' | 'status'> = new client.Gauge({ name: 'venue_emails', help: 'E-mails in the ledger by template and status (QUEUED, SENT, FAILED).', labelNames: ['template', 'status'] as const, registers });
  const { knex } = platform.db;
  metrics.onScrape(async () => {
    const rows = (await knex('chat_turns').select('source', 'status').count({ count: '*' }).groupBy('source', 'status')) as Array<{ source: string; status: string; count: string | number }>;
    chatTurns.reset();
    for (const row of rows) chatTurns.set({ source: row.source, status: row.status }, Number(row.count));
  });
  metrics.onScrape(async () => {
    const rows = (await knex('email_messages').select('template', 'status').count({ count: '*' }).groupBy('template', 'status')) as Array<{ template: string; status: string; count: string | number }>;
    emails.reset();
    for (const row of rows) emails.set({ template: row.template, status: row.status }, Number(row.count));
  });

  return {
    venueMetrics: {
      ...counters,
      businessEvent(event, extra) {
        if (event === 'reservation created') counters.holds.inc({ by: extra.created_by === 'STAFF' ? 'staff' : 'guest' });
        else if (event === 'operator check-in completed') counters.checkIns.inc();
      },
    },
  };
}

/** After commit, last: the counters move only for what was committed, and never hold up the other subscribers. */
const ORDER = 1100;

export const METRIC_SUBSCRIBERS: DomainSubscriber[] = [
  subscriber({ name: 'system.count-confirmation', event: 'reservation.confirmed', phase: 'after-commit', order: ORDER, handle: (_, { app }) => app.venueMetrics?.confirmations.inc() }),
  subscriber({ name: 'system.count-cancellation', event: 'reservation.cancelled', phase: 'after-commit', order: ORDER, handle: (event, { app }) => app.venueMetrics?.cancellations.inc({ by: event.by }) }),
  subscriber({ name: 'system.count-no-show', event: 'reservation.noShow', phase: 'after-commit', order: ORDER, handle: (_, { app }) => app.venueMetrics?.noShows.inc() }),
  subscriber({ name: 'system.count-expired-holds', event: 'holds.expired', phase: 'after-commit', order: ORDER, handle: (event, { app }) => app.venueMetrics?.holdsExpired.inc(event.reservationIds.length) }),
  subscriber({ name: 'system.count-captured-payment', event: 'payment.captured', phase: 'after-commit', order: ORDER, handle: (event, { app }) => app.venueMetrics?.payments.inc({ method: event.gateway, result: 'captured' }) }),
  subscriber({ name: 'system.count-failed-payment', event: 'payment.failed', phase: 'after-commit', order: ORDER, handle: (event, { app }) => app.venueMetrics?.payments.inc({ method: event.gateway, result: 'failed' }) }),
  subscriber({ name: 'system.count-refund', event: 'payment.refunded', phase: 'after-commit', order: ORDER, handle: (event, { app }) => app.venueMetrics?.refunds.inc({ method: event.gateway, kind: 'full' }) }),
  subscriber({ name: 'system.count-partial-refund', event: 'payment.partiallyRefunded', phase: 'after-commit', order: ORDER, handle: (event, { app }) => app.venueMetrics?.refunds.inc({ method: event.gateway, kind: 'partial' }) }),
];
