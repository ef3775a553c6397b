import type { Knex } from 'knex';
import { Conflict, NotFound } from '../../platform/http/problem.ts';
import { publish, type ReservationStatusChanged } from '../../domain/events.ts';
import type { TransitionContext } from '../../domain/unitOfWork.ts';
import { Reservation } from './models.ts';
import { eventCapacity, eventStartsAt, lockedReservation, lockShowEvent, seatsTakenOf } from './queries.ts';
import { statusAt, type ReservationStatus } from './status.ts';
import { digest, newAccessToken, sealSecret } from '../../platform/auth/tokens.ts';

/**
 * A reservation's state machine (DOMAIN.md "Booking") and the transitions every entry point shares (the module's
 * transition commands, each run in its caller's unit of work): the guest's
 * cancel, the payment callback's confirm, staff confirm/cancel/no-show, the batch update, a cancelled event.
 *
 *   HELD → CONFIRMED | EXPIRED | CANCELLED;  CONFIRMED → CHECKED_IN | CANCELLED | NO_SHOW.
 *
 * Anything else is 409 `illegal_transition` (`reservation_not_cancellable` for a cancel, the code guests see). Each function acts inside the caller's transaction (`ctx.trx`) and
 * locks what it changes; lock order is always show event → reservation → payment, so two commands never wait on
 * each other in a cycle. A transition publishes its domain event (`reservation.confirmed`, `.cancelled`, `.noShow`)
 * in the same transaction; other modules' records subscribe (payments: refund requests on a cancellation; the
 * waiting list: seats freed; e-mail: the guest's confirmation and cancellation), see server/domain/events.ts. The
 * unit of work they run in (`inTransition`, `TransitionContext`) is server/domain/unitOfWork.ts.
 */

export const TRANSITIONS: Readonly<Record<ReservationStatus, readonly ReservationStatus[]>> = Object.freeze({
  HELD: ['CONFIRMED', 'EXPIRED', 'CANCELLED'],
  CONFIRMED: ['CHECKED_IN', 'CANCELLED', 'NO_SHOW'],
  CHECKED_IN: [],
  CANCELLED: [],
  EXPIRED: [],
  NO_SHOW: [],
});

export const canTransition = (from: ReservationStatus, to: ReservationStatus) => TRANSITIONS[from].includes(to);

export function illegalTransition(from: ReservationStatus, to: ReservationStatus) {
  return Conflict('illegal_transition', `A ${from.toLowerCase().replace('_', '-')} reservation cannot become ${to.toLowerCase().replace('_', '-')}.`);
}

export function assertTransition(from: ReservationStatus, to: ReservationStatus): void {
  if (!canTransition(from, to)) throw illegalTransition(from, to);
}

// ---- what other modules do: domain events ------------------------------------------------------------------

const STATUS_EVENTS = { CONFIRMED: 'reservation.confirmed', CANCELLED: 'reservation.cancelled', NO_SHOW: 'reservation.noShow' } as const;

/** Publishes the transition's domain event; the subscribers declared in the module records run in order. */
async function published(ctx: TransitionContext, change: ReservationStatusChanged & { to: keyof typeof STATUS_EVENTS }): Promise<void> {
  await publish(ctx, STATUS_EVENTS[change.to], change);
}

// ---- locking ----------------------------------------------------------------------------------------------

/** Locks the reservation's event row first, then the reservation (the lock order above). */
async function lockEventThenReservation(trx: Knex.Transaction, id: string): Promise<Reservation> {
  const found = await Reservation.query(trx).findById(id).select('show_event_id');
  if (!found) throw NotFound('No such reservation.');
  await lockShowEvent(trx, found.showEventId);
  return lockedReservation(trx, id);
}

// ---- transitions ---------------------------------------------------------------------------------------------

export interface ConfirmOptions {
  by: 'PAYMENT' | 'STAFF' | 'SYSTEM';
}

export interface ConfirmResult {
  /** False when it was already confirmed (or checked in): nothing was written. */
  changed: boolean;
  status: ReservationStatus;
  /** The new check-in token (in the confirmation e-mail's QR code); only when `changed`. */
  checkInToken?: string;
}

/**
 * HELD → CONFIRMED: stores a fresh check-in token (hashed, and sealed), ends the hold and publishes
 * `reservation.confirmed`, whose subscribers run in the caller's transaction: first the e-mail module's (the
 * confirmation e-mail in the guest's locale with the QR of the token, through the ledger, and the reminder's job),
 * then the promo code's and voucher's retakes. Already CONFIRMED or
 * CHECKED_IN: unchanged. A payment that lands after the hold ran out (EXPIRED, or HELD past its expiry) still
 * confirms when the seats are free — the event row is locked and the seats recounted — and is 409
 * `seats_released` otherwise (the payment command then refunds). Staff cannot confirm an expired hold.
 */
export async function confirmReservation(ctx: TransitionContext, id: string, options: ConfirmOptions): Promise<ConfirmResult> {
  const row = await lockEventThenReservation(ctx.trx, id);
  if (row.status === 'CONFIRMED' || row.status === 'CHECKED_IN') return { changed: false, status: row.status };
  const from = statusAt(row, ctx.now);
  if (from === 'EXPIRED' && options.by === 'PAYMENT') {
    const capacity = await eventCapacity(ctx.trx, row.showEventId);
    // A HELD row past its expiry is not counted by the availability expression, so this counts the others.
    const taken = await seatsTakenOf(ctx.trx, row.showEventId, ctx.now);
    if (capacity - taken < row.guestCount) throw Conflict('seats_released', 'The hold ran out and its seats have been taken.');
  } else {
    assertTransition(from, 'CONFIRMED');
  }
  const checkInToken = newAccessToken();
  await Reservation.query(ctx.trx)
    .findById(id)
    .patch({
      status: 'CONFIRMED',
      confirmedAt: ctx.now,
      confirmedBy: options.by,
      holdExpiresAt: null,
      expiredAt: null,
      checkInTokenHash: digest(checkInToken),
      // Kept sealed too, so the guest's own view can show the ticket's QR again (issue 21 §3).
      checkInTokenSealed: await sealSecret(ctx.trx, checkInToken),
      updatedAt: ctx.now,
    });
  // The confirmation e-mail and its reminder are the e-mail module's subscriber (first, in this transaction).
  await published(ctx, { reservationId: id, from: row.status, to: 'CONFIRMED', reason: null });
  return { changed: true, status: 'CONFIRMED', checkInToken };
}

export interface CancelOptions {
  by: 'GUEST' | 'STAFF' | 'SYSTEM';
  reason?: string | null;
  /**
   * E-mail the guest (default): a `GUEST` cancellation gets `reservation-cancelled-by-guest`, a `STAFF` one
   * `reservation-cancelled-by-venue` (the staff reason stays internal). `SYSTEM` cancellations send none of these
   * (a cancelled show event's guest gets `reservation-cancelled`: the e-mail module's subscriber reads `cause`).
   */
  notifyGuest?: boolean;
  /** Why, when it was no one's choice about this reservation (`event_cancelled`: its show event was cancelled). */
  cause?: 'event_cancelled';
  /** With `event_cancelled`: what its guest had paid and not had back, read by the caller before the refunds. */
  paidVnd?: number;
}

/**
 * HELD or CONFIRMED → CANCELLED, then `reservation.cancelled`'s subscribers (refund requests for what was paid, the
 * promo code and voucher released, the waiting list, commissions voided, the guest's e-mail — see
 * `CancelOptions.notifyGuest` — and, after commit, the `reservation cancelled` business event). The reminder job needs no cancelling:
 * it finds the reservation cancelled and sends nothing. Already CANCELLED: unchanged (`changed: false`), so retries and a re-run event cancellation
 * are harmless. The cancellation window is the guest entry point's rule, not this one's.
 */
export async function cancelReservation(ctx: TransitionContext, id: string, options: CancelOptions): Promise<{ changed: boolean; from: ReservationStatus }> {
  const row = await lockedReservation(ctx.trx, id);
  if (row.status === 'CANCELLED') return { changed: false, from: row.status };
  const from = statusAt(row, ctx.now);
  if (!canTransition(from, 'CANCELLED')) throw Conflict('reservation_not_cancellable', `A ${from.toLowerCase().replace('_', '-')} reservation cannot be cancelled.`);
  await Reservation.query(ctx.trx)
    .findById(id)
    .patch({ status: 'CANCELLED', cancelledAt: ctx.now, cancelledBy: options.by, cancellationReason: options.reason ?? null, holdExpiresAt: null, updatedAt: ctx.now });
  // The guest's e-mail is the e-mail module's subscriber (last, after the refunds this cancellation requests).
  const notifyGuest = options.by !== 'SYSTEM' && options.notifyGuest !== false;
  await publish(ctx, 'reservation.cancelled', {
    reservationId: id,
    from,
    to: 'CANCELLED',
    reason: options.reason ?? null,
    by: options.by,
    notifyGuest,
    ...(options.cause ? { cause: options.cause } : {}),
    ...(options.paidVnd !== undefined ? { paidVnd: options.paidVnd } : {}),
  });
  return { changed: true, from };
}

/**
 * CONFIRMED → CHECKED_IN: the door's first accepted entry (the checkIns module's redeem command, which has locked the
 * row and judged the scan; `from` is the status it read; `operator` who let the guest in), publishing
 * `reservation.checkedIn`. 409 `illegal_transition` from any other status.
 */
export async function markCheckedIn(ctx: TransitionContext, id: string, from: ReservationStatus, operator: string): Promise<void> {
  assertTransition(from, 'CHECKED_IN');
  await Reservation.query(ctx.trx).findById(id).patch({ status: 'CHECKED_IN', checkedInAt: ctx.now, updatedAt: ctx.now });
  await publish(ctx, 'reservation.checkedIn', { reservationId: id, from, to: 'CHECKED_IN', reason: null, operator });
}

/** CONFIRMED → NO_SHOW, only once the event has started (409 `event_not_started` before). */
export async function markNoShow(ctx: TransitionContext, id: string): Promise<{ changed: boolean }> {
  const row = await lockedReservation(ctx.trx, id);
  if (row.status === 'NO_SHOW') return { changed: false };
  assertTransition(statusAt(row, ctx.now), 'NO_SHOW');
  if (new Date(await eventStartsAt(ctx.trx, row.showEventId)) > ctx.now) throw Conflict('event_not_started', 'A guest can be marked a no-show only once the event has started.');
  await Reservation.query(ctx.trx).findById(id).patch({ status: 'NO_SHOW', noShowAt: ctx.now, updatedAt: ctx.now });
  await published(ctx, { reservationId: id, from: 'CONFIRMED', to: 'NO_SHOW', reason: null });
  return { changed: true };
}
