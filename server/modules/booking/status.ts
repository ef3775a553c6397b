/** A reservation's statuses and the status a guest or operator reads (pure; no database). */

export const RESERVATION_STATUSES = ['HELD', 'CONFIRMED', 'CHECKED_IN', 'CANCELLED', 'EXPIRED', 'NO_SHOW'] as const;
export type ReservationStatus = (typeof RESERVATION_STATUSES)[number];

/** The status a guest sees: a HELD reservation past its hold is EXPIRED, whether or not the job has run yet. */
export function statusAt(reservation: { status: ReservationStatus; holdExpiresAt: Date | string | null }, now: Date): ReservationStatus {
  if (reservation.status === 'HELD' && reservation.holdExpiresAt && new Date(reservation.holdExpiresAt) <= now) return 'EXPIRED';
  return reservation.status;
}


/** Until when the guest may cancel: the event's start − the setup's cancellation window. */
export const cancellableUntil = (startsAt: Date, windowHours: number) => new Date(new Date(startsAt).getTime() - windowHours * 3_600_000);
