/** The durable job engine (pg-boss): see engine.ts for how it runs on PGlite and on PostgreSQL. */
export { createJobEngine, JOB_SCHEMA, PgBossJobEngine, type JobEngineOptions } from './engine.ts';
export { knexAdapter } from './adapter.ts';
export { collectQueues } from './registry.ts';
export type * from './types.ts';
