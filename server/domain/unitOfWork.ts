import type { AppContext } from '../platform/context.ts';
import { inUnitOfWork } from '../platform/unitOfWork.ts';
import { actorLabel, type Actor } from './actors.ts';
import type { DomainContext } from './events.ts';

/**
 * A venue command's unit of work and its actor (DESIGN.md "Domain events"): one transaction, its clock, its
 * after-commit list, its event publisher (`publish(ctx, …)`, ./events.ts) and who acts. Every module's commands run
 * in one (booking's transitions, payments, check-ins, the waiting list…); it belongs to no module.
 */

/** Who acts: a staff member or key (an actor), the guest with its token, or the system (jobs, callbacks). */
export type TransitionActor = Actor;

export { actorLabel };

/** The unit of work a command runs in (the domain events' context: its subscribers get the same). */
export type TransitionContext = DomainContext;

/** Runs `work` in one unit of work (server/platform/unitOfWork.ts) as `actor`; after-commit tasks run once it has committed. */
export async function inTransition<T>(app: AppContext, actor: TransitionActor, work: (ctx: TransitionContext) => Promise<T>, now = new Date()): Promise<T> {
  return inUnitOfWork({ knex: app.db.knex, logger: app.logger }, (uow) => work({ ...uow, app, actor }), now);
}
