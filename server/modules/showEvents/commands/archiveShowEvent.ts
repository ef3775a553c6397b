import type { AppContext } from '../../../platform/context.ts';
import type { StaffActor } from '../../../domain/actors.ts';
import { cancelEvent } from './cancellationFlow.ts';

/** Archives an event (the DELETE), which cancels it through the cancellation flow with no reason (./cancellationFlow.ts). */
export function archiveShowEvent(app: AppContext, id: string, actor: StaffActor) {
  return cancelEvent(app, { id, reason: null, actor });
}
