import { subscriber } from '../../domain/events.ts';
import { BUSINESS_EVENTS, captureBusinessEvent } from './events.ts';

/**
 * The booking's business events that follow domain events (spec §6.1–6.2; ./events.ts): a hold placed (`reservation
 * created`), a check-in (`operator check-in completed`), a cancellation. After commit, so an event exists only for
 * what was saved; after the metric counters (order 1100). Declared in the module's record (./module.ts). The payment
 * ones are sent through the payable seam's `track` (./payable.ts), which payments calls after its commit.
 */
export const createdBusinessEvent = subscriber({
  name: 'booking.business-event-created',
  event: 'hold.placed',
  phase: 'after-commit',
  order: 1200,
  handle: ({ reservationId, by }, ctx) => captureBusinessEvent(ctx.app, BUSINESS_EVENTS.reservationCreated, reservationId, by === 'STAFF' ? { created_by: 'STAFF' } : {}),
});

export const checkedInBusinessEvent = subscriber({
  name: 'booking.business-event-checked-in',
  event: 'reservation.checkedIn',
  phase: 'after-commit',
  order: 1200,
  handle: ({ reservationId, operator }, ctx) => captureBusinessEvent(ctx.app, BUSINESS_EVENTS.operatorCheckInCompleted, reservationId, { checked_in_by: operator }),
});

export const cancellationBusinessEvent = subscriber({
  name: 'booking.business-event-cancelled',
  event: 'reservation.cancelled',
  phase: 'after-commit',
  order: 1200,
  handle: ({ reservationId, by, cause }, ctx) =>
    captureBusinessEvent(ctx.app, BUSINESS_EVENTS.reservationCancelled, reservationId, { cancelled_by: by, ...(cause ? { cancellation_cause: cause } : {}) }),
});
