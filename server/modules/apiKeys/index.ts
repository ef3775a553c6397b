/**
 * The `apiKeys` module's door: what the rest of the server may use. The platform resolves API keys on the request
 * path through `apiKeyStore` (built by server/app.ts); its record is module.ts.
 */
export { apiKeyStore } from './store.ts';
