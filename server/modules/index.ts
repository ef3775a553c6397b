import type { HandlerMap, OperationHandlers } from '../http/handler.ts';
import { BASE_POLICY, type PolicyEntry } from '../http/policy.ts';
import * as accounts from './accounts/handlers.ts';
import * as analytics from './analytics/handlers.ts';
import * as analyticsPolicy from './analytics/policy.ts';
import * as apiKeys from './apiKeys/handlers.ts';
import * as commercialSetup from './commercialSetup/handlers.ts';
import * as customers from './customers/handlers.ts';
import * as checkIns from './checkIns/handlers.ts';
import * as auth from './auth/handlers.ts';
import * as booking from './booking/handlers.ts';
import * as bookingPolicy from './booking/policy.ts';
import * as catalog from './catalog/handlers.ts';
import * as catalogPolicy from './catalog/policy.ts';
import * as email from './email/handlers.ts';
import * as fulfillment from './fulfillment/handlers.ts';
import * as integrations from './integrations/handlers.ts';
import * as authPolicy from './auth/policy.ts';
import * as jobs from './jobs/handlers.ts';
import * as maintenance from './maintenance/handlers.ts';
import * as offers from './offers/handlers.ts';
import * as payments from './payments/handlers.ts';
import * as paymentsPolicy from './payments/policy.ts';
import * as shows from './shows/handlers.ts';
import * as showEvents from './showEvents/handlers.ts';
import * as storage from './storage/handlers.ts';
import * as storagePolicy from './storage/policy.ts';
import * as system from './system/handlers.ts';
import * as systemPolicy from './system/policy.ts';
import * as tables from './tables/handlers.ts';
import * as reservations from './reservations/handlers.ts';
import * as assistantCatalog from './assistantCatalog/handlers.ts';
import * as assistantCatalogPolicy from './assistantCatalog/policy.ts';
import * as knowledge from './knowledge/handlers.ts';
import * as promoCodes from './promoCodes/handlers.ts';
import * as vouchers from './vouchers/handlers.ts';
import * as vouchersPolicy from './vouchers/policy.ts';
import * as inquiries from './inquiries/handlers.ts';
import * as inquiriesPolicy from './inquiries/policy.ts';
import * as waitlist from './waitlist/handlers.ts';
import * as waitlistPolicy from './waitlist/policy.ts';
import * as profiles from './profiles/handlers.ts';
import * as profilesPolicy from './profiles/policy.ts';
import * as referralLinks from './referralLinks/handlers.ts';
import * as referralLinksPolicy from './referralLinks/policy.ts';
import * as referralPartners from './referralPartners/handlers.ts';
import * as referralPartnersPolicy from './referralPartners/policy.ts';
import * as referralCodes from './referralCodes/handlers.ts';
import * as referralCommissions from './referralCommissions/handlers.ts';
import * as assistant from './assistant/handlers.ts';
import * as assistantPolicy from './assistant/policy.ts';
import * as chatPlatform from './chatPlatform/handlers.ts';
import * as chatPlatformPolicy from './chatPlatform/policy.ts';
import * as messaging from './messaging/handlers.ts';
import * as messagingPolicy from './messaging/policy.ts';
import * as chatNotifications from './chatNotifications/handlers.ts';
import * as chatNotificationsPolicy from './chatNotifications/policy.ts';

/**
 * One module per contract tag (DESIGN.md "Layout"): the operations tagged `shows` are handled by
 * `server/modules/shows/handlers.ts`, whose public API policy entries live in `server/modules/shows/policy.ts`.
 * Boot (and test/modules/convention.spec.ts) refuse an operation handled outside its tag's module.
 */
export interface Module {
  handlers: Partial<OperationHandlers>;
  /** This module's public API policy entries (spec §5.5); the registry is their union. */
  policy?: PolicyEntry[];
}

export const MODULES: Record<string, Module> = {
  system: { handlers: system.handlers, policy: systemPolicy.policy },
  auth: { handlers: auth.handlers, policy: authPolicy.policy },
  accounts: { handlers: accounts.handlers },
  apiKeys: { handlers: apiKeys.handlers },
  jobs: { handlers: jobs.handlers },
  maintenance: { handlers: maintenance.handlers },
  email: { handlers: email.handlers },
  storage: { handlers: storage.handlers, policy: storagePolicy.policy },
  shows: { handlers: shows.handlers },
  offers: { handlers: offers.handlers },
  fulfillment: { handlers: fulfillment.handlers },
  tables: { handlers: tables.handlers },
  commercialSetup: { handlers: commercialSetup.handlers },
  showEvents: { handlers: showEvents.handlers },
  catalog: { handlers: catalog.handlers, policy: catalogPolicy.policy },
  booking: { handlers: booking.handlers, policy: bookingPolicy.policy },
  customers: { handlers: customers.handlers },
  payments: { handlers: payments.handlers, policy: paymentsPolicy.policy },
  checkIns: { handlers: checkIns.handlers },
  reservations: { handlers: reservations.handlers },
  assistantCatalog: { handlers: assistantCatalog.handlers, policy: assistantCatalogPolicy.policy },
  knowledge: { handlers: knowledge.handlers },
  promoCodes: { handlers: promoCodes.handlers },
  vouchers: { handlers: vouchers.handlers, policy: vouchersPolicy.policy },
  inquiries: { handlers: inquiries.handlers, policy: inquiriesPolicy.policy },
  waitlist: { handlers: waitlist.handlers, policy: waitlistPolicy.policy },
  profiles: { handlers: profiles.handlers, policy: profilesPolicy.policy },
  analytics: { handlers: analytics.handlers, policy: analyticsPolicy.policy },
  integrations: { handlers: integrations.handlers },
  referralLinks: { handlers: referralLinks.handlers, policy: referralLinksPolicy.policy },
  referralPartners: { handlers: referralPartners.handlers, policy: referralPartnersPolicy.policy },
  referralCodes: { handlers: referralCodes.handlers },
  referralCommissions: { handlers: referralCommissions.handlers },
  assistant: { handlers: assistant.handlers, policy: assistantPolicy.policy },
  chatPlatform: { handlers: chatPlatform.handlers, policy: chatPlatformPolicy.policy },
  messaging: { handlers: messaging.handlers, policy: messagingPolicy.policy },
  chatNotifications: { handlers: chatNotifications.handlers, policy: chatNotificationsPolicy.policy },
};

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
export const POLICY_REGISTRY: PolicyEntry[] = [...Object.values(MODULES).flatMap((module) => module.policy ?? []), ...BASE_POLICY];

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
