/**
 * Which specs run on PostgreSQL as well. CI runs the whole suite on the embedded PGlite database, and on a real
 * PostgreSQL server only the tests tagged `@db` in their title (`npm run test:db`, i.e. `mocha --grep @db`).
 *
 * The rule. PGlite is PostgreSQL itself (same parser, planner, types and functions) compiled to WASM, running in
 * the test process over ONE connection. So a test is tagged `@db` (on its `it`, or on a `describe` when the
 * whole suite is about it) when its outcome can depend on the engine, that is when it
 *   1. races requests or processes for the same rows (row or advisory locks, unique-violation races, counters,
 *      pool limits): on one PGlite connection everything is serialized, only PostgreSQL really races;
 *   2. drives the job engine (workers, pg-boss's own pool, SKIP LOCKED fetches, expiry, several processes);
 *   3. checks transaction semantics: a rollback, an effect bound to the writer's transaction, after-commit;
 *   4. checks what the database itself settles: hand-written aggregate SQL, maintenance, migrations, database
 *      health and readiness;
 *   5. branches on the engine (`db.kind`, `DATABASE_URL`).
 * Everything else is engine-independent and runs once, on PGlite: the HTTP pipeline (identity, access,
 * validation, CORS, errors, contract), one request's ORM reads and writes, presenters, the terminal app, the
 * assistant's offline model, integrations against local fakes, pure units, docs and README examples.
 *
 * Every spec file is either tagged (`@db` somewhere in a title) or listed below; `test/engines.spec.ts` fails
 * otherwise, so a new spec cannot be left off the PostgreSQL leg by accident. To list a file here is to claim
 * that none of its tests falls under the five points.
 */
export const ENGINE_INDEPENDENT_SPECS: readonly string[] = [
  'browser/docs.spec.ts',
  'browser/passkeys.spec.ts',
  'browser/storefront.spec.ts',
  'cli/devSecrets.spec.ts',
  'engines.spec.ts',
  'cli/seeder.spec.ts',
  'docs/configuration.spec.ts',
  'docs/links.spec.ts',
  'http/accessMatrix.spec.ts',
  'http/apiKeyCredentials.spec.ts',
  'http/cors.spec.ts',
  'http/deprecatedAliases.spec.ts',
  'http/errorPaths.spec.ts',
  'http/errors.spec.ts',
  'http/fuzz.spec.ts',
  'http/hardening.spec.ts',
  'http/identity.spec.ts',
  'http/logging.spec.ts',
  'http/policy.spec.ts',
  'http/problemCodes.spec.ts',
  'http/replies.spec.ts',
  'http/tokenAccess.spec.ts',
  'http/uploads.spec.ts',
  'http/validatorCache.spec.ts',
  'integrations/analytics.spec.ts',
  'integrations/chatPlatforms.spec.ts',
  'integrations/vnpay.spec.ts',
  'modules/accounts/memberships.spec.ts',
  'modules/accounts/organizations.spec.ts',
  'modules/accounts/sudoUsers.spec.ts',
  'modules/analytics/privacy.spec.ts',
  'modules/apiKeys/apiKeys.spec.ts',
  'modules/assistant/agent.spec.ts',
  'modules/assistant/chat.spec.ts',
  'modules/assistant/hostedModels.spec.ts',
  'modules/assistant/understanding.spec.ts',
  'modules/assistant/mistral.spec.ts',
  'modules/assistant/venueDataCache.spec.ts',
  'modules/assistantCatalog/assistantCatalog.spec.ts',
  'modules/assistantCatalog/demoVenue.spec.ts',
  'modules/auth/principal.spec.ts',
  'modules/booking/guest.spec.ts',
  'modules/booking/guestView.spec.ts',
  'sdk/package.spec.ts',
  'modules/booking/logistics.spec.ts',
  'modules/catalog/availability.spec.ts',
  'modules/catalog/demoVenue.spec.ts',
  'modules/catalog/public.spec.ts',
  'modules/catalog/queries.spec.ts',
  'modules/chatNotifications/chatNotifications.spec.ts',
  'modules/chatPlatform/realAgent.spec.ts',
  'modules/chatPlatform/turnTyping.spec.ts',
  'modules/chatPlatform/typing.spec.ts',
  'modules/commercialSetup/commercialSetup.spec.ts',
  'modules/convention.spec.ts',
  'modules/customers/customerEmails.spec.ts',
  'modules/customers/customers.spec.ts',
  'modules/customers/strangers.spec.ts',
  'modules/email/delivery.spec.ts',
  'modules/email/outbox.spec.ts',
  'modules/fulfillment/fulfillment.spec.ts',
  'modules/inquiries/inquiries.spec.ts',
  'modules/integrations/metaEvents.spec.ts',
  'modules/knowledge/knowledge.spec.ts',
  'modules/messaging/messaging.spec.ts',
  'modules/offers/offers.spec.ts',
  'modules/offers/sudoOffers.spec.ts',
  'modules/payments/events.spec.ts',
  'modules/payments/sandbox.spec.ts',
  'modules/profiles/profiles.spec.ts',
  'modules/records.spec.ts',
  'modules/layering.spec.ts',
  'modules/referralCodes/referralCodes.spec.ts',
  'modules/referralLinks/sticker.spec.ts',
  'modules/referralPartners/referralPartners.spec.ts',
  'modules/reservations/batch.spec.ts',
  'modules/showEvents/backfill.spec.ts',
  'modules/showEvents/batch.spec.ts',
  'modules/showEvents/cancellation.spec.ts',
  'modules/showEvents/logistics.spec.ts',
  'modules/showEvents/showEvents.spec.ts',
  'modules/storage/api.spec.ts',
  'modules/storage/service.spec.ts',
  'modules/system/docs.spec.ts',
  'modules/tables/tables.spec.ts',
  'modules/waitlist/joinPath.spec.ts',
  'modules/waitlist/waitlist.spec.ts',
  'process/production.spec.ts',
  'process/start.spec.ts',
  'process/startFast.spec.ts',
  'readme/readme.spec.ts',
  'sdk/client.spec.ts',
  'storage/drivers.spec.ts',
  'tui/accounts.spec.ts',
  'tui/apiKeys.spec.ts',
  'tui/connect.spec.ts',
  'tui/imports.spec.ts',
  'tui/jobs.spec.ts',
  'tui/layout.spec.ts',
  'tui/memberships.spec.ts',
  'tui/organizations.spec.ts',
  'tui/terminal.spec.ts',
];

/** The tag `npm run test:db` greps for. */
export const DB_TAG = '@db';
