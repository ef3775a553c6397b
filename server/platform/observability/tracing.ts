import type { Config } from '../config.ts';
import type { Logger } from '../logger.ts';
import type { Tracing } from './types.ts';

export type { Tracing } from './types.ts';

/**
 * OpenTelemetry tracing (issue 25 §6), off by default and free when off: with OTEL_EXPORTER_OTLP_ENDPOINT unset,
 * `loadTracing` answers undefined and nothing of the OpenTelemetry SDK or its exporter is loaded (this file imports
 * types only; the implementation, ./otel.ts, is imported dynamically). On, an app gets one `Tracing`: a span per
 * request (named by its operation, with the operationId, the status and the request id as attributes), per
 * database statement run inside a request or a job (knex's query events), per job (the engine's worker) and per
 * outbound `fetch` made inside one of those, each a child of the span it runs under (AsyncLocalStorage), sent
 * over OTLP/HTTP to `<endpoint>/v1/traces`. The interface is in ./types.ts (./otel.ts implements it).
 */

/** True once this process has loaded the OpenTelemetry SDK (tests check that an app without tracing never does). */
export let tracingLoaded = false;

/** The app's tracing when OTEL_EXPORTER_OTLP_ENDPOINT is set, else undefined (and nothing loaded). */
export async function loadTracing(config: Pick<Config, 'tracing'>, logger: Logger): Promise<Tracing | undefined> {
  const { endpoint, serviceName } = config.tracing;
  if (!endpoint) return undefined;
  const { createTracing } = await import('./otel.ts');
  tracingLoaded = true;
  return createTracing({ endpoint, serviceName, logger });
}
