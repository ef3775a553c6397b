/**
 * The factories most specs need (accounts, sessions, API keys), re-exported from their modules' factories so a
 * spec outside those modules has one import. Every row type is built in exactly one place:
 * `test/modules/<tag>/factories.ts` of the module that owns its table (see test/README.md).
 */
export * from '../modules/accounts/factories.ts';
export * from '../modules/auth/factories.ts';
export * from '../modules/apiKeys/factories.ts';
