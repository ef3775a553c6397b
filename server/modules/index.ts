import type { HandlerMap, OperationHandlers } from '../platform/http/handler.ts';
import { BASE_POLICY, type PolicyEntry } from '../platform/http/policy.ts';
import { collectQueues } from '../platform/jobs/registry.ts';
import type { QueueDefinition } from '../platform/jobs/types.ts';
import type { DomainSubscriber } from '../domain/events.ts';
import type { Payable } from '../domain/payables.ts';
import type { ContextAdditions, PlatformContext } from '../platform/context.ts';
import type { BookingExtensions } from './booking/extensions.ts';
import type { ModuleRecord } from './record.ts';
import { record as systemRecord } from './system/module.ts';
import { record as authRecord } from './auth/module.ts';
import { record as accountsRecord } from './accounts/module.ts';
import { record as apiKeysRecord } from './apiKeys/module.ts';
import { record as passkeysRecord } from './passkeys/module.ts';
import { record as jobsRecord } from './jobs/module.ts';
import { record as maintenanceRecord } from './maintenance/module.ts';
import { record as emailRecord } from './email/module.ts';
import { record as storageRecord } from './storage/module.ts';
import { record as showsRecord } from './shows/module.ts';
import { record as offersRecord } from './offers/module.ts';
import { record as fulfillmentRecord } from './fulfillment/module.ts';
import { record as tablesRecord } from './tables/module.ts';
import { record as commercialSetupRecord } from './commercialSetup/module.ts';
import { record as showEventsRecord } from './showEvents/module.ts';
import { record as catalogRecord } from './catalog/module.ts';
import { record as bookingRecord } from './booking/module.ts';
import { record as customersRecord } from './customers/module.ts';
import { record as paymentsRecord } from './payments/module.ts';
import { record as checkInsRecord } from './checkIns/module.ts';
import { record as reservationsRecord } from './reservations/module.ts';
import { record as assistantCatalogRecord } from './assistantCatalog/module.ts';
import { record as knowledgeRecord } from './knowledge/module.ts';
import { record as promoCodesRecord } from './promoCodes/module.ts';
import { record as vouchersRecord } from './vouchers/module.ts';
import { record as giftVouchersRecord } from './giftVouchers/module.ts';
import { record as inquiriesRecord } from './inquiries/module.ts';
import { record as waitlistRecord } from './waitlist/module.ts';
import { record as profilesRecord } from './profiles/module.ts';
import { record as analyticsRecord } from './analytics/module.ts';
import { record as integrationsRecord } from './integrations/module.ts';
import { record as referralLinksRecord } from './referralLinks/module.ts';
import { record as referralPartnersRecord } from './referralPartners/module.ts';
import { record as referralCodesRecord } from './referralCodes/module.ts';
import { record as referralCommissionsRecord } from './referralCommissions/module.ts';
import { record as assistantRecord } from './assistant/module.ts';
import { record as chatPlatformRecord } from './chatPlatform/module.ts';
import { record as messagingRecord } from './messaging/module.ts';
import { record as chatNotificationsRecord } from './chatNotifications/module.ts';
import { record as exportsRecord } from './exports/module.ts';
import { record as webhooksRecord } from './webhooks/module.ts';

/**
 * Every module's record (server/modules/record.ts), one per contract tag (DESIGN.md "Layout": the operations
 * tagged `shows` are handled by `server/modules/shows/`). Everything global is derived from this list — the
 * handler map, the public-policy registry, the job queues, the domain-event subscribers, the booking's
 * extensions — and nothing else registers anything. Boot (and test/modules/convention.spec.ts) refuse an
 * operation handled outside its tag's module.
 */
const records = {
  system: systemRecord(),
  auth: authRecord(),
  accounts: accountsRecord(),
  apiKeys: apiKeysRecord(),
  passkeys: passkeysRecord(),
  jobs: jobsRecord(),
  maintenance: maintenanceRecord(),
  email: emailRecord(),
  storage: storageRecord(),
  shows: showsRecord(),
  offers: offersRecord(),
  fulfillment: fulfillmentRecord(),
  tables: tablesRecord(),
  commercialSetup: commercialSetupRecord(),
  showEvents: showEventsRecord(),
  catalog: catalogRecord(),
  booking: bookingRecord(),
  customers: customersRecord(),
  payments: paymentsRecord(),
  checkIns: checkInsRecord(),
  reservations: reservationsRecord(),
  assistantCatalog: assistantCatalogRecord(),
  knowledge: knowledgeRecord(),
  promoCodes: promoCodesRecord(),
  vouchers: vouchersRecord(),
  giftVouchers: giftVouchersRecord(),
  inquiries: inquiriesRecord(),
  waitlist: waitlistRecord(),
  profiles: profilesRecord(),
  analytics: analyticsRecord(),
  integrations: integrationsRecord(),
  referralLinks: referralLinksRecord(),
  referralPartners: referralPartnersRecord(),
  referralCodes: referralCodesRecord(),
  referralCommissions: referralCommissionsRecord(),
  assistant: assistantRecord(),
  chatPlatform: chatPlatformRecord(),
  messaging: messagingRecord(),
  chatNotifications: chatNotificationsRecord(),
  exports: exportsRecord(),
  webhooks: webhooksRecord(),
};

export const RECORDS: readonly ModuleRecord[] = Object.values(records);

export type Module = Pick<ModuleRecord, 'handlers' | 'policy'>;

/** The records by tag. */
export const MODULES: Record<string, Module> = Object.fromEntries(RECORDS.map((record) => [record.tag, record]));

/** operationId → handler, for every operation in openapi.yaml (checked by the compiler and again at boot). */
const typed: OperationHandlers = {
  ...records.system.handlers,
  ...records.auth.handlers,
  ...records.accounts.handlers,
  ...records.apiKeys.handlers,
  ...records.passkeys.handlers,
  ...records.jobs.handlers,
  ...records.maintenance.handlers,
  ...records.email.handlers,
  ...records.storage.handlers,
  ...records.shows.handlers,
  ...records.offers.handlers,
  ...records.fulfillment.handlers,
  ...records.tables.handlers,
  ...records.commercialSetup.handlers,
  ...records.showEvents.handlers,
  ...records.catalog.handlers,
  ...records.booking.handlers,
  ...records.customers.handlers,
  ...records.payments.handlers,
  ...records.checkIns.handlers,
  ...records.reservations.handlers,
  ...records.assistantCatalog.handlers,
  ...records.knowledge.handlers,
  ...records.promoCodes.handlers,
  ...records.vouchers.handlers,
  ...records.giftVouchers.handlers,
  ...records.inquiries.handlers,
  ...records.waitlist.handlers,
  ...records.profiles.handlers,
  ...records.analytics.handlers,
  ...records.integrations.handlers,
  ...records.referralLinks.handlers,
  ...records.referralPartners.handlers,
  ...records.referralCodes.handlers,
  ...records.referralCommissions.handlers,
  ...records.assistant.handlers,
  ...records.chatPlatform.handlers,
  ...records.messaging.handlers,
  ...records.chatNotifications.handlers,
  ...records.exports.handlers,
  ...records.webhooks.handlers,
};

export const handlers = typed as unknown as HandlerMap;

/** The public API policy registry: every module's entries, then the base families (`/api/sudo/`, `/api/`). */
export const POLICY_REGISTRY: PolicyEntry[] = [...RECORDS.flatMap((record) => record.policy ?? []), ...BASE_POLICY];

/** Every module's queues, refusing a queue name declared twice. */
export const QUEUES: readonly QueueDefinition[] = collectQueues(RECORDS.map((record) => record.jobs ?? []));

/** Every module's per-app services (record `services`), built at boot from the platform's; a key claimed twice is refused. */
export function moduleServices(platform: PlatformContext): Partial<ContextAdditions> {
  const services: Record<string, unknown> = {};
  for (const record of RECORDS) {
    for (const [key, value] of Object.entries(record.services?.(platform) ?? {})) {
      if (key in services) throw new Error(`the app context's "${key}" is declared by two modules (the second: ${record.tag})`);
      services[key] = value;
    }
  }
  return services as Partial<ContextAdditions>;
}

/** Every module's domain-event subscribers (the bus orders them per event by their declared `order`). */
export const SUBSCRIBERS: readonly DomainSubscriber[] = RECORDS.flatMap((record) => record.subscribers ?? []);

const byOrder = <T extends { order: number; name: string }>(list: T[]): T[] => list.sort((a, b) => a.order - b.order || a.name.localeCompare(b.name));

/** What other modules bring to a hold: price adjustments in their declared order, seat claims. */
export const BOOKING_EXTENSIONS: BookingExtensions = {
  priceAdjustments: byOrder(RECORDS.flatMap((record) => [...(record.priceAdjustments ?? [])])),
  seatClaims: RECORDS.flatMap((record) => record.seatClaims ?? []),
};

/** The modules' parts of priming (record `prime`), in module order. */
export const PRIMERS: ReadonlyArray<{ tag: string; prime: NonNullable<ModuleRecord['prime']> }> = RECORDS.flatMap((record) => (record.prime ? [{ tag: record.tag, prime: record.prime }] : []));

/** What the payments module can settle: every module's payables (app.payables holds them by kind). */
export const PAYABLES: readonly Payable[] = RECORDS.flatMap((record) => record.payables ?? []);

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
