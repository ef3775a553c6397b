import type { Knex } from 'knex';
import type { AuthContext } from '../../auth/context.ts';
import type { AppContext } from '../../context.ts';
import type { ShowEvent } from './models.ts';

/**
 * The parts of the cancellation flow that belong to other modules (DOMAIN.md "Catalog"): cancelling the event's
 * active reservations with refund requests for paid ones, expiring its waiting list, e-mailing its guests. Each
 * module registers its part once, at import; `cancelEvent` runs them in registration order, inside its
 * transaction, after the event row is locked and marked `CANCELLED`. A part that throws rolls the whole
 * cancellation back.
 *
 * A part must be idempotent: the flow runs again when an already cancelled event is cancelled again
 * (`alreadyCancelled`), and then finds nothing left to do. It acts only through `trx` (on PGlite, any other
 * query would wait for this transaction forever), and defers what must not happen unless the cancellation
 * commits — analytics events, anything outside the database — to `afterCommit`.
 */
export interface CancellationActor {
  role: AuthContext['role'];
  authSource: AuthContext['authSource'];
  accountId: string | null;
  apiKeyId: string | null;
}

export interface CancellationContext {
  trx: Knex.Transaction;
  /** The event, already `CANCELLED`. */
  event: ShowEvent;
  reason: string | null;
  actor: CancellationActor;
  /** True when the event was cancelled before this run. */
  alreadyCancelled: boolean;
  app: AppContext;
  /** Runs `task` once the transaction has committed (never when it rolls back); a failure there is logged. */
  afterCommit(task: () => void | Promise<void>): void;
}

/** What a part did, as counts (or short notes) the reply reports under the part's name. */
export type CancellationSummary = Record<string, number | string | boolean | null>;

export type CancellationHook = (context: CancellationContext) => Promise<CancellationSummary>;

const hooks = new Map<string, CancellationHook>();

/** Adds a part of the flow; returns its removal (tests). A name is registered once. */
export function registerCancellationHook(name: string, hook: CancellationHook): () => void {
  if (hooks.has(name)) throw new Error(`cancellation hook ${name} is already registered`);
  hooks.set(name, hook);
  return () => {
    if (hooks.get(name) === hook) hooks.delete(name);
  };
}

/** The registered parts, in the order they run. */
export function cancellationHooks(): Array<[string, CancellationHook]> {
  return [...hooks.entries()];
}

export function cancellationActor(auth: AuthContext): CancellationActor {
  return { role: auth.role, authSource: auth.authSource, accountId: auth.identity.accountId ?? null, apiKeyId: auth.identity.apiKeyId ?? null };
}
