import type { AppContext } from '../../../platform/context.ts';
import { Conflict, NotFound } from '../../../platform/http/problem.ts';
import { inUnitOfWork } from '../../../platform/unitOfWork.ts';
import { seatsTakenOf, upsertCustomer } from '../../booking/index.ts';
import { eventToJoin, insertEntryUnlessLive } from '../queries.ts';

export interface JoinInput {
  eventSlug: string;
  guestCount: number;
  name: string;
  email: string;
  phone?: string;
  locale?: string;
  note?: string;
}

/**
 * Joins the list: only for a published, scheduled event whose seats left are fewer than the party (409
 * `seats_available` otherwise — book instead). One live entry per e-mail and event: a join with an e-mail that
 * already waits (or holds an offer) stores nothing and changes nothing, and answers exactly like a first join —
 * the handler answers the receipt of the request (presentJoinReceipt), nothing read from the stored entry — so
 * nobody learns who waits for what. Serves `joinWaitlist` and its deprecated alias `joinWaitlistDeprecated`.
 *
 * Nor does the clock tell (issue 32 §4.1): a duplicate used to stop after one read, answering in half the time of
 * a first join. Both now run the very same statements, in the same order: the customer of the e-mail upserted (a
 * guest's contact never changes an existing customer: a duplicate's upsert changes nothing but the address's
 * last-seen time) and one statement that writes the entry unless a live one exists (insertEntryUnlessLive). What
 * differs is inside that one statement — whether the row is written — not how many round trips the answer waits for.
 * The refusals before that (404, 409) depend on the event only, never on the e-mail address.
 */
export async function joinWaitlist(app: AppContext, input: JoinInput, now = new Date()): Promise<void> {
  await inUnitOfWork(
    { knex: app.db.knex, logger: app.logger },
    async ({ trx }) => {
      const event = await eventToJoin(trx, input.eventSlug);
      if (!event || event.showStatus !== 'PUBLISHED') throw NotFound('No such show event.');
      if (event.status !== 'SCHEDULED') throw Conflict('event_not_bookable', `The event is ${String(event.status).toLowerCase()}.`);
      const left = event.capacity - (await seatsTakenOf(trx, event.id, now));
      if (left >= input.guestCount) throw Conflict('seats_available', `${left} seats are left: book them instead of waiting.`);
      const email = input.email.trim();
      // The same work whether or not this address already waits (above): no early return on a duplicate.
      const customerId = await upsertCustomer(trx, { name: input.name, email, phone: input.phone, locale: input.locale });
      await insertEntryUnlessLive(trx, {
        showEventId: event.id,
        customerId,
        name: input.name.trim(),
        email,
        phone: input.phone ?? null,
        locale: input.locale ?? null,
        guestCount: input.guestCount,
        note: input.note ?? null,
        now,
      });
    },
    now,
  );
}
