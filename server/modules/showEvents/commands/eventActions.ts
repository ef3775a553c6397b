import type { Knex } from 'knex';
import { Conflict } from '../../../platform/http/problem.ts';
import { ShowEvent } from '../models.ts';
import { changeShowEvent, eventClosed } from '../service.ts';

/**
 * The event actions (DOMAIN.md "Catalog"), each on the locked row. A move the lifecycle forbids is a 409 with a
 * stable code; asking for the state the event is already in changes nothing.
 */

/** Guests may book: only a scheduled event that has not started. */
export function openSales(knex: Knex, id: string, now = new Date()) {
  return changeShowEvent(knex, id, async (trx, event) => {
    if (event.status !== 'SCHEDULED') throw eventClosed(event);
    if (new Date(event.startsAt) <= now) throw Conflict('event_started', 'The event has started; sales cannot open.');
    if (event.salesOpen) return event;
    return ShowEvent.query(trx).patchAndFetchById(id, { salesOpen: true });
  });
}

/** No new bookings. Whatever the state: a cancelled or completed event's sales are already closed. */
export function closeSales(knex: Knex, id: string) {
  return changeShowEvent(knex, id, async (trx, event) => {
    if (!event.salesOpen) return event;
    return ShowEvent.query(trx).patchAndFetchById(id, { salesOpen: false });
  });
}

/** The performance took place: only once it has started, never a cancelled one; sales close. */
export function completeEvent(knex: Knex, id: string, now = new Date()) {
  return changeShowEvent(knex, id, async (trx, event) => {
    if (event.status === 'COMPLETED') return event;
    if (event.status === 'CANCELLED') throw Conflict('event_cancelled', 'A cancelled event cannot be completed.');
    if (new Date(event.startsAt) > now) throw Conflict('event_not_started', 'The event has not started yet.');
    return ShowEvent.query(trx).patchAndFetchById(id, { status: 'COMPLETED', completedAt: now, salesOpen: false });
  });
}
