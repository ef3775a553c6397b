import { subscriber } from '../../domain/events.ts';
import { BUSINESS_EVENTS, captureBusinessEvent } from './events.ts';

/**
 * The booking's business events that follow its own domain events (spec §6.1–6.2; ./events.ts). After commit, so an
 * event exists only for what was saved; after the metric counters (order 1100), as when the commands queued them.
 * Declared in the module's record (./index.ts).
 */
export const cancellationBusinessEvent = subscriber({
  name: 'booking.business-event-cancelled',
  event: 'reservation.cancelled',
  phase: 'after-commit',
  order: 1200,
  handle: ({ reservationId, by, cause }, ctx) =>
    captureBusinessEvent(ctx.app, BUSINESS_EVENTS.reservationCancelled, reservationId, { cancelled_by: by, ...(cause ? { cancellation_cause: cause } : {}) }),
});
