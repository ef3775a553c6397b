import type { PriceAdjustment, SeatClaimProvider } from '../domain/bookingExtensions.ts';
import type { DomainSubscriber } from '../domain/events.ts';
import type { Payable } from '../domain/payables.ts';
import type { AppContext, ContextAdditions, PlatformContext } from '../platform/context.ts';
import type { OperationHandlers } from '../platform/http/handler.ts';
import type { PolicyEntry } from '../platform/http/policy.ts';
import type { QueueDefinition } from '../platform/jobs/types.ts';
import type { PrimeWork } from '../platform/prime.ts';

/**
 * A module's record (DESIGN.md "Modules"): everything the rest of the server learns about the module, declared in
 * one place, its `index.ts`. `server/modules/index.ts` lists the records and derives every global table from them
 * — the handler map, the public-policy registry, the job queues, the domain-event subscribers, the booking's
 * extensions — so nothing is wired because a file happened to be imported.
 */
export interface ModuleRecord {
  /** The contract tag this module handles (tag = folder). */
  tag: string;
  /** operationId → handler, for the operations tagged `tag`. */
  handlers: Partial<OperationHandlers>;
  /** Public API policy entries (spec §5.5) of this module's public operations. */
  policy?: readonly PolicyEntry[];
  /** Background queues and their handlers. */
  jobs?: readonly QueueDefinition[];
  /** What this module does when a domain event happens (each with its phase and order). */
  subscribers?: readonly DomainSubscriber[];
  /** What this module takes off (or credits to) a booking's price, in the hold's transaction. */
  priceAdjustments?: readonly PriceAdjustment[];
  /** Seats this module holds for a booking elsewhere (a waiting-list offer), claimed in the hold's transaction. */
  seatClaims?: readonly SeatClaimProvider[];
  /** What this module sells that the payments module settles (server/domain/payables.ts), one per payable kind. */
  payables?: readonly Payable[];
  /**
   * The services this module keeps per running app (rate limits, outside systems' clients, caches), built once at boot
   * from the platform's services and put on the app context under the keys the module declares on `AppContext`
   * (declaration merging in its own files). Nothing per app lives in a module-level `WeakMap`.
   */
  services?: (platform: PlatformContext) => Partial<ContextAdditions>;
  /**
   * Before the process is ready (`App.prime`, server/platform/prime.ts): this module's hot paths run once without
   * writing anything (its statements in a transaction rolled back), and the requests and operations it hands back
   * walk its hot operations through the chain (each answered without a write: a read, a refusal).
   */
  prime?: (app: AppContext) => Promise<PrimeWork>;
}
