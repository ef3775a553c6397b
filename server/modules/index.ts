import type { HandlerMap, OperationHandlers } from '../http/handler.ts';
import { BASE_POLICY, type PolicyEntry } from '../http/policy.ts';
import { collectQueues } from '../jobs/registry.ts';
import type { QueueDefinition } from '../jobs/types.ts';
import type { DomainSubscriber } from '../domain/events.ts';
import type { BookingExtensions } from './booking/service.ts';
import type { ModuleRecord } from './record.ts';
import { record as system } from './system/index.ts';
import { record as auth } from './auth/index.ts';
import { record as accounts } from './accounts/index.ts';
import { record as apiKeys } from './apiKeys/index.ts';
import { record as jobs } from './jobs/index.ts';
import { record as maintenance } from './maintenance/index.ts';
import { record as email } from './email/index.ts';
import { record as storage } from './storage/index.ts';
import { record as shows } from './shows/index.ts';
import { record as offers } from './offers/index.ts';
import { record as fulfillment } from './fulfillment/index.ts';
import { record as tables } from './tables/index.ts';
import { record as commercialSetup } from './commercialSetup/index.ts';
import { record as showEvents } from './showEvents/index.ts';
import { record as catalog } from './catalog/index.ts';
import { record as booking } from './booking/index.ts';
import { record as customers } from './customers/index.ts';
import { record as payments } from './payments/index.ts';
import { record as checkIns } from './checkIns/index.ts';
import { record as reservations } from './reservations/index.ts';
import { record as assistantCatalog } from './assistantCatalog/index.ts';
import { record as knowledge } from './knowledge/index.ts';
import { record as promoCodes } from './promoCodes/index.ts';
import { record as vouchers } from './vouchers/index.ts';
import { record as inquiries } from './inquiries/index.ts';
import { record as waitlist } from './waitlist/index.ts';
import { record as profiles } from './profiles/index.ts';
import { record as analytics } from './analytics/index.ts';
import { record as integrations } from './integrations/index.ts';
import { record as referralLinks } from './referralLinks/index.ts';
import { record as referralPartners } from './referralPartners/index.ts';
import { record as referralCodes } from './referralCodes/index.ts';
import { record as referralCommissions } from './referralCommissions/index.ts';
import { record as assistant } from './assistant/index.ts';
import { record as chatPlatform } from './chatPlatform/index.ts';
import { record as messaging } from './messaging/index.ts';
import { record as chatNotifications } from './chatNotifications/index.ts';

/**
 * Every module's record (server/modules/record.ts), one per contract tag (DESIGN.md "Layout": the operations
 * tagged `shows` are handled by `server/modules/shows/`). Everything global is derived from this list — the
 * handler map, the public-policy registry, the job queues, the domain-event subscribers, the booking's
 * extensions — and nothing else registers anything. Boot (and test/modules/convention.spec.ts) refuse an
 * operation handled outside its tag's module.
 */
export const RECORDS: readonly ModuleRecord[] = [
  system,
  auth,
  accounts,
  apiKeys,
  jobs,
  maintenance,
  email,
  storage,
  shows,
  offers,
  fulfillment,
  tables,
  commercialSetup,
  showEvents,
  catalog,
  booking,
  customers,
  payments,
  checkIns,
  reservations,
  assistantCatalog,
  knowledge,
  promoCodes,
  vouchers,
  inquiries,
  waitlist,
  profiles,
  analytics,
  integrations,
  referralLinks,
  referralPartners,
  referralCodes,
  referralCommissions,
  assistant,
  chatPlatform,
  messaging,
  chatNotifications,
];

export type Module = Pick<ModuleRecord, 'handlers' | 'policy'>;

/** The records by tag. */
export const MODULES: Record<string, Module> = Object.fromEntries(RECORDS.map((record) => [record.tag, record]));

/** operationId → handler, for every operation in openapi.yaml (checked by the compiler and again at boot). */
const typed: OperationHandlers = {
  ...system.handlers,
  ...auth.handlers,
  ...accounts.handlers,
  ...apiKeys.handlers,
  ...jobs.handlers,
  ...maintenance.handlers,
  ...email.handlers,
  ...storage.handlers,
  ...shows.handlers,
  ...offers.handlers,
  ...fulfillment.handlers,
  ...tables.handlers,
  ...commercialSetup.handlers,
  ...showEvents.handlers,
  ...catalog.handlers,
  ...booking.handlers,
  ...customers.handlers,
  ...payments.handlers,
  ...checkIns.handlers,
  ...reservations.handlers,
  ...assistantCatalog.handlers,
  ...knowledge.handlers,
  ...promoCodes.handlers,
  ...vouchers.handlers,
  ...inquiries.handlers,
  ...waitlist.handlers,
  ...profiles.handlers,
  ...analytics.handlers,
  ...integrations.handlers,
  ...referralLinks.handlers,
  ...referralPartners.handlers,
  ...referralCodes.handlers,
  ...referralCommissions.handlers,
  ...assistant.handlers,
  ...chatPlatform.handlers,
  ...messaging.handlers,
  ...chatNotifications.handlers,
};

export const handlers = typed as unknown as HandlerMap;

/** The public API policy registry: every module's entries, then the base families (`/api/sudo/`, `/api/`). */
export const POLICY_REGISTRY: PolicyEntry[] = [...RECORDS.flatMap((record) => record.policy ?? []), ...BASE_POLICY];

/** Every module's queues, refusing a queue name declared twice. */
export const QUEUES: readonly QueueDefinition[] = collectQueues(RECORDS.map((record) => record.jobs ?? []));

/** Every module's domain-event subscribers (the bus orders them per event by their declared `order`). */
export const SUBSCRIBERS: readonly DomainSubscriber[] = RECORDS.flatMap((record) => record.subscribers ?? []);

const byOrder = <T extends { order: number; name: string }>(list: T[]): T[] => list.sort((a, b) => a.order - b.order || a.name.localeCompare(b.name));

/** What other modules bring to a hold: price adjustments in their declared order, seat claims. */
export const BOOKING_EXTENSIONS: BookingExtensions = {
  priceAdjustments: byOrder(RECORDS.flatMap((record) => [...(record.priceAdjustments ?? [])])),
  seatClaims: RECORDS.flatMap((record) => record.seatClaims ?? []),
};

/** Every operation is handled by the module named by its tag, and no module handles another tag's operation. */
export function checkModules(operations: Array<{ operationId: string; tags: string[] }>, modules: Record<string, Module> = MODULES): string[] {
  const problems: string[] = [];
  const tagOf = new Map(operations.map((op) => [op.operationId, op.tags[0]]));
  for (const op of operations) {
    const tag = op.tags[0];
    if (!modules[tag]) problems.push(`${op.operationId} is tagged ${tag}, but there is no module server/modules/${tag}/`);
  }
  for (const [tag, module] of Object.entries(modules)) {
    for (const operationId of Object.keys(module.handlers)) {
      const owner = tagOf.get(operationId);
      if (owner && owner !== tag) problems.push(`${operationId} is tagged ${owner} but handled in server/modules/${tag}/handlers.ts`);
    }
  }
  return problems;
}
