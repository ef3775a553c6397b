import { subscriber } from '../../domain/events.ts';
import { cancelEventReservations } from './commands/cancelEventReservations.ts';

/** A cancelled show event cancels its active reservations, in the flow's transaction. Named as the cancellation flow's reply reports it (`hooks[].name`). */
export const eventCancelled = subscriber({
  name: 'reservations',
  event: 'showEvent.cancelled',
  phase: 'in-transaction',
  order: 10,
  handle: (payload, ctx) => cancelEventReservations(payload, ctx),
});
