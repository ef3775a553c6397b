import type { AppContext } from '../../../platform/context.ts';
import type { StaffActor } from '../../../domain/actors.ts';
import { cancelEvent } from './cancellationFlow.ts';

/** Cancels an event with a reason, through the cancellation flow (./cancellationFlow.ts). */
export function cancelShowEvent(app: AppContext, id: string, reason: string, actor: StaffActor) {
  return cancelEvent(app, { id, reason, actor });
}
