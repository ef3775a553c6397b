import type { AppContext } from '../../platform/context.ts';
import { Problem } from '../../platform/http/problem.ts';
import type { PrimeWork } from '../../platform/prime.ts';
import { publish } from '../../domain/events.ts';
import { poolSize } from '../../platform/db/database.ts';
import { EXPIRE_HOLDS_QUEUE } from './jobs.ts';
import { presentGuestReservation } from './presenters.ts';
import { holdOutlookRow, NO_MONEY } from './queries.ts';
import { createHold, outlookBeforeLock } from './commands/createHold.ts';

/** Thrown inside the priming hold's transaction so it rolls back; never leaves primeBooking. */
class RollBack extends Error {}

/** An event slug no event has (the refused holds of the priming requests). */
const NO_EVENT = 'prime-no-such-event';

/**
 * The booking's part of priming (server/platform/prime.ts). On the next bookable event (if there is one) the hold's
 * statements run in a transaction that is rolled back, once on each of the pool's connections — the gate's read and judgement, the setup and the
 * customer upserted, the token sealed, the expiry job enqueued, the event locked and the hold written and counted,
 * `hold.placed`'s in-transaction subscribers — so the first guest's hold meets prepared code and a warm database
 * (its plans, its caches). Nothing of it is kept: the after-commit list is never run, the transaction's notify is
 * never sent; its answer is presented as the guest's would be. Then the requests: holds and a quote the validators
 * refuse (a whole body with no guests, an empty one), which walk the chain without reaching a rate limit.
 */
export async function primeBooking(app: AppContext): Promise<PrimeWork> {
  const { knex } = app.db;
  const now = new Date();
  const target = await knex('show_events as e')
    .join('shows as s', 's.id', 'e.show_id')
    .join('offers as o', (join) => join.on((on) => on.on('o.show_id', '=', 'e.show_id').orOnNull('o.show_id')))
    .where({ 'e.status': 'SCHEDULED', 'e.sales_open': true, 's.status': 'PUBLISHED', 'o.status': 'ACTIVE' })
    .andWhere('e.starts_at', '>', new Date(now.getTime() + 2 * 86_400_000))
    .orderBy('e.starts_at')
    .first('e.slug', 'o.code', 'o.min_guests');
  if (target) {
    const input = {
      eventSlug: target.slug as string,
      offerCode: target.code as string,
      guestCount: Math.max(1, Number(target.min_guests)),
      contact: { name: 'Priming', email: 'priming@prime.invalid', phone: '+84 90 000 0000', locale: 'en' },
    };
    await outlookBeforeLock(knex, app.bookingExtensions, input, await holdOutlookRow(knex, input.eventSlug, input.offerCode, now), now).catch(refusedOnly);
    // On every connection of the pool at once (each waits for the event's lock in turn, then rolls back): each
    // PostgreSQL connection is a backend with caches of its own (the tables', indexes' and types' descriptions it
    // reads on its first statement over them), and a rush's holds run on all of them. Warmed on one only, R1's
    // first round read p99 256–306 ms; on all ten, 213–246 ms.
    const holdOnce = () =>
      knex
        .transaction(async (trx) => {
          // The expiry job as the guest's hold enqueues it, when this process's engine is started (it is in server/main.ts).
          const enqueueExpiry = app.jobs.started
            ? async ({ reservationId, holdExpiresAt }: { reservationId: string; holdExpiresAt: Date }) => {
                await app.jobs.enqueue(EXPIRE_HOLDS_QUEUE, { reservationId }, { trx, startAfter: holdExpiresAt });
              }
            : undefined;
          const hold = await createHold(app.bookingExtensions, trx, input, now, 'guest', enqueueExpiry);
          await publish({ trx, app, actor: 'GUEST', now, afterCommit: () => {} }, 'hold.placed', { reservationId: hold.reservationId, showEventId: hold.view.showEventId, by: 'GUEST' });
          const { siteLocales, defaultLocale } = app.config;
          JSON.stringify(presentGuestReservation(hold.view, NO_MONEY, { siteLocales, defaultLocale, now, cancellationWindowHours: hold.cancellationWindowHours }));
          throw new RollBack();
        })
        .catch((err: unknown) => {
          if (!(err instanceof RollBack)) refusedOnly(err);
        });
    await Promise.all(Array.from({ length: poolSize(app.db) }, holdOnce));
  }
  // No hold request that passes validation: one the gate cannot refuse for certain reaches the hold's transaction
  // and spends a rate-limit point (a row, on PostgreSQL). The refusal of a whole but invalid body walks the chain.
  const hold = { eventSlug: NO_EVENT, offerCode: target?.code ?? 'PRIME', guestCount: 0, contact: { name: 'Priming', email: 'priming@prime.invalid', locale: 'en' } };
  return {
    operations: ['createPublicReservation', 'quoteReservation', 'getPublicReservation', 'cancelPublicReservation'],
    requests: [
      { method: 'POST', path: '/api/public/reservations', body: hold },
      { method: 'POST', path: '/api/public/reservations', body: {} },
      { method: 'POST', path: '/api/public/quotes', body: {} },
    ],
  };
}

/** A refusal (sold out, closed, …) is a path primed too; anything else is a fault worth failing the start for. */
function refusedOnly(err: unknown): void {
  if (!(err instanceof Problem)) throw err;
}
