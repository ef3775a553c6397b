import type { Knex } from 'knex';

/** A show event's states (DOMAIN.md "Catalog"). */
export const SHOW_EVENT_STATUSES = ['SCHEDULED', 'CANCELLED', 'COMPLETED'] as const;
export type ShowEventStatus = (typeof SHOW_EVENT_STATUSES)[number];

/**
 * Availability of a show event (DOMAIN.md "Catalog"): `capacity` − the guests of the bookings that hold seats.
 *
 * Seats taken are an SQL expression over one event row, so a read of many events carries them in its own single
 * query (a correlated sub-select per row, never a query per event): the guests of the event's reservations that
 * are CONFIRMED or CHECKED_IN, plus its HELD ones whose hold has not expired at `now` (an expired hold frees its
 * seats at once, whether or not the expiry job has marked it EXPIRED yet), plus the waiting list's open offers.
 *
 * Booking (server/modules/booking) counts the same expression inside its transaction with the event row locked
 * (`select … for update`), so the public figures here are only ever a snapshot for browsing.
 */
export function seatsTakenSql(knex: Knex, eventIdColumn: string, now: Date): Knex.Raw {
  // The waiting list's open offers (server/modules/waitlist: NOTIFIED, offer not expired) hold their seats too.
  return knex.raw(
    `((select coalesce(sum(r.guest_count), 0)::integer from reservations r
       where r.show_event_id = ??
         and (r.status in ('CONFIRMED', 'CHECKED_IN') or (r.status = 'HELD' and r.hold_expires_at > ?)))
      + (select coalesce(sum(w.guest_count), 0)::integer from waitlist_entries w
       where w.show_event_id = ?? and w.status = 'NOTIFIED' and w.offer_expires_at > ?))`,
    [eventIdColumn, now, eventIdColumn, now],
  );
}

/** Seats taken of each event of `eventIds`, in one query whatever their number (events not found are absent). */
export async function seatsTakenByEvent(knex: Knex, eventIds: readonly string[], now: Date): Promise<Map<string, number>> {
  if (eventIds.length === 0) return new Map();
  const rows: Array<{ id: string; seats_taken: number | string }> = await knex('show_events as e')
    .select('e.id', knex.raw('? as seats_taken', [seatsTakenSql(knex, 'e.id', now)]))
    .whereIn('e.id', eventIds as string[]);
  return new Map(rows.map((row) => [row.id, Number(row.seats_taken)]));
}

export const AVAILABILITY_STATES = ['AVAILABLE', 'LIMITED', 'SOLD_OUT', 'CLOSED'] as const;
export type AvailabilityState = (typeof AVAILABILITY_STATES)[number];

export interface AvailabilityInput {
  capacity: number;
  seatsTaken: number;
  salesOpen: boolean;
  status: ShowEventStatus;
  startsAt: Date;
  /** The commercial setup's booking cut-off: booking closes this many minutes before the start. */
  bookingCutoffMinutes: number;
  /** The commercial setup's threshold: at or below this many seats left, the exact count is not shown. */
  limitedAvailabilityThreshold: number;
  now: Date;
}

export interface Availability {
  state: AvailabilityState;
  /** Exact seats left, only while more than the threshold are left (AVAILABLE); null otherwise. */
  seatsLeft: number | null;
  /** When booking closes (`startsAt` − cut-off). */
  bookingClosesAt: Date;
}

/**
 * What a guest sees of an event, in this order:
 * - `CLOSED`: not `SCHEDULED` (cancelled or completed), sales closed by staff, or the cut-off reached
 *   (`now` ≥ `startsAt` − cut-off: at the cut-off instant itself booking is closed);
 * - `SOLD_OUT`: no seat left;
 * - `LIMITED`: seats left, but no more than the threshold (the count is not shown);
 * - `AVAILABLE`: more than the threshold left, with the exact count.
 */
export function availabilityOf(input: AvailabilityInput): Availability {
  const bookingClosesAt = new Date(input.startsAt.getTime() - input.bookingCutoffMinutes * 60_000);
  const closed = input.status !== 'SCHEDULED' || !input.salesOpen || input.now.getTime() >= bookingClosesAt.getTime();
  if (closed) return { state: 'CLOSED', seatsLeft: null, bookingClosesAt };
  const left = Math.max(0, input.capacity - input.seatsTaken);
  if (left === 0) return { state: 'SOLD_OUT', seatsLeft: null, bookingClosesAt };
  if (left <= input.limitedAvailabilityThreshold) return { state: 'LIMITED', seatsLeft: null, bookingClosesAt };
  return { state: 'AVAILABLE', seatsLeft: left, bookingClosesAt };
}
