import type { Knex } from 'knex';
import type { AppContext } from '../../../platform/context.ts';
import { Conflict, NotFound } from '../../../platform/http/problem.ts';
import type { JobEngine } from '../../../platform/jobs/types.ts';
import { seatsTakenOf } from '../../booking/index.ts';
import { digest, newAccessToken } from '../../booking/index.ts';
import { recordEmail } from '../../email/index.ts';

/**
 * Waiting-list offers: an entry is NOTIFIED with a fresh offer token (only its SHA-256 stored) that holds its
 * party's seats for WAITLIST_OFFER_HOURS (the availability expression counts it), and the offer link is
 * e-mailed through the ledger. Staff notify one entry; the job notifies, in joining order, every waiting entry
 * whose party fits in the seats that freed up (a cancellation, an expired hold, an expired offer), as pretix
 * does. Each runs in one transaction with the event row locked (lock order: event → entries), so two runs
 * never offer the same seats twice.
 */

export const WAITLIST_EXPIRE_OFFERS_QUEUE = 'waitlist.expire-offers';
export const WAITLIST_NOTIFY_NEXT_QUEUE = 'waitlist.notify-next';

type Enqueue = Pick<JobEngine, 'enqueue'>;

interface LockedEvent {
  id: string;
  slug: string;
  capacity: number;
  status: string;
  sales_open: boolean;
  starts_at: Date;
  title: Record<string, string>;
}

async function lockEvent(trx: Knex.Transaction, eventId: string): Promise<LockedEvent | undefined> {
  const { rows } = (await trx.raw(
    `select e.id, e.slug, e.capacity, e.status, e.sales_open, e.starts_at, s.title
       from show_events e join shows s on s.id = e.show_id where e.id = ? for update of e`,
    [eventId],
  )) as { rows: LockedEvent[] };
  return rows[0];
}

/** Marks one entry NOTIFIED with a new token and expiry, e-mails the link, schedules the offer's expiry. */
async function offer(trx: Knex.Transaction, app: AppContext, event: LockedEvent, entry: { id: string; name: string; email: string; locale: string | null; guest_count: number; customer_id: string | null }, now: Date) {
  const token = newAccessToken();
  const expiresAt = new Date(now.getTime() + app.config.waitlistOfferHours * 3_600_000);
  await trx('waitlist_entries')
    .where({ id: entry.id })
    .update({ status: 'NOTIFIED', offer_token_hash: digest(token), offer_expires_at: expiresAt, notified_at: now, updated_at: now });
  const locale = entry.locale ?? app.config.defaultLocale;
  const url = new URL(app.config.waitlistOfferUrl);
  url.searchParams.set('event', event.slug);
  url.searchParams.set('token', token);
  await recordEmail(
    trx,
    {
      template: 'waitlist-offer',
      to: entry.email,
      locale,
      customerId: entry.customer_id,
      data: {
        guestName: entry.name,
        showName: event.title[locale] ?? event.title[app.config.defaultLocale] ?? Object.values(event.title)[0] ?? '',
        startsAt: event.starts_at,
        partySize: entry.guest_count,
        offerUrl: url.toString(),
        offerExpiresAt: expiresAt,
      },
    },
    { enqueue: app.jobs.enqueue.bind(app.jobs), emailFrom: app.config.emailFrom },
  );
  await app.jobs.enqueue(WAITLIST_EXPIRE_OFFERS_QUEUE, { eventId: event.id }, { trx, startAfter: expiresAt });
}

/** Staff: offer seats to this entry now (WAITING, or NOTIFIED again with a new link). 409 when its party does not fit. */
export async function notifyEntry(app: AppContext, id: string, now = new Date()): Promise<void> {
  await app.db.knex.transaction(async (trx) => {
    const found = await trx('waitlist_entries').where({ id }).first('show_event_id');
    if (!found) throw NotFound('No such waiting-list entry.');
    const event = (await lockEvent(trx, found.show_event_id))!;
    const entry = await trx('waitlist_entries').where({ id }).forUpdate().first();
    if (entry.status !== 'WAITING' && entry.status !== 'NOTIFIED') throw Conflict('entry_not_waiting', `The entry is ${entry.status.toLowerCase()}.`);
    if (event.status !== 'SCHEDULED') throw Conflict('event_not_bookable', `The event is ${event.status.toLowerCase()}.`);
    const ownHeld = entry.status === 'NOTIFIED' && entry.offer_expires_at && new Date(entry.offer_expires_at) > now ? entry.guest_count : 0;
    const left = event.capacity - (await seatsTakenOf(trx, event.id, now)) + ownHeld;
    if (left < entry.guest_count) throw Conflict('not_enough_seats', `Only ${Math.max(0, left)} seats are free; the party has ${entry.guest_count}.`);
    await offer(trx, app, event, entry, now);
  });
}

/**
 * The job: offers the free seats of an event to its waiting entries in joining order, each whose party fits
 * (a larger party further up the list does not block a smaller one). Nothing for an event not on sale.
 * Answers how many were notified.
 */
export async function notifyNextWaiting(app: AppContext, eventId: string, now = new Date()): Promise<number> {
  return app.db.knex.transaction(async (trx) => {
    const event = await lockEvent(trx, eventId);
    if (!event || event.status !== 'SCHEDULED' || !event.sales_open || new Date(event.starts_at) <= now) return 0;
    let free = event.capacity - (await seatsTakenOf(trx, event.id, now));
    if (free <= 0) return 0;
    const waiting = await trx('waitlist_entries').where({ show_event_id: eventId, status: 'WAITING' }).orderBy([{ column: 'created_at' }, { column: 'id' }]).forUpdate();
    let notified = 0;
    for (const entry of waiting) {
      if (entry.guest_count > free) continue;
      await offer(trx, app, event, entry, now);
      free -= entry.guest_count;
      notified++;
    }
    return notified;
  });
}

/** The job: offers past their expiry become EXPIRED (their seats are free again); the events they held seats of. */
export async function expireOffers(knex: Knex, now = new Date()): Promise<string[]> {
  const expired: Array<{ show_event_id: string }> = await knex('waitlist_entries')
    .where('status', 'NOTIFIED')
    .andWhere('offer_expires_at', '<=', now)
    .update({ status: 'EXPIRED', expired_at: now, offer_token_hash: null, updated_at: now })
    .returning(['show_event_id']);
  return [...new Set(expired.map((row) => row.show_event_id))];
}

/** Schedules the notify job for these events (in the caller's transaction, so only if it commits). */
export async function queueNotifyNext(jobs: Enqueue, trx: Knex.Transaction, eventIds: string[]): Promise<void> {
  for (const eventId of new Set(eventIds)) await jobs.enqueue(WAITLIST_NOTIFY_NEXT_QUEUE, { eventId }, { trx });
}
