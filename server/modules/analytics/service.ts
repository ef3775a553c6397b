/**
 * @deprecated The dashboards' aggregate reads live in ./queries.ts; this name stays for test/bench/run.ts, which
 * imports it (outside this module's tests).
 */
export * from './queries.ts';
