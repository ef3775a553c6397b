import type Koa from 'koa';
import type { AppState } from '../http/state.ts';
import type { Metrics } from './metrics.ts';
import type { Tracing } from './tracing.ts';

export { createMetrics, type Metrics } from './metrics.ts';
export { loadTracing, type Tracing } from './tracing.ts';
export { startMetricsServer, type MetricsServer } from './server.ts';

/**
 * Counts every answered request by its operation and final status (after the error boundary, which sits inside
 * it). Mounted only when metrics are on. A request the contract does not route (an unknown path, a preflight) is
 * `unmatched`: the label never holds a raw path.
 */
export function observeRequests(metrics: Metrics): Koa.Middleware<AppState> {
  return (ctx, next) => {
    const started = performance.now();
    return next().then(
      () => metrics.observeRequest(ctx.state.operation?.operationId ?? 'unmatched', ctx.status, (performance.now() - started) / 1000),
      (err: unknown) => {
        metrics.observeRequest(ctx.state.operation?.operationId ?? 'unmatched', 500, (performance.now() - started) / 1000);
        throw err;
      },
    );
  };
}

/** Runs one job's handler under its span (tracing on) and counts it by result (metrics on); just runs it otherwise. */
export function observeJob<T>(observers: { metrics?: Metrics; tracing?: Tracing } | undefined, queue: string, job: { id: string; attempt: number }, run: () => Promise<T>): Promise<T> {
  const metrics = observers?.metrics;
  const tracing = observers?.tracing;
  if (!metrics && !tracing) return run();
  const started = performance.now();
  const running = tracing ? tracing.runJob(queue, job, run) : run();
  if (!metrics) return running;
  return running.then(
    (result) => {
      metrics.observeJob(queue, 'completed', (performance.now() - started) / 1000);
      return result;
    },
    (err: unknown) => {
      metrics.observeJob(queue, 'failed', (performance.now() - started) / 1000);
      throw err;
    },
  );
}
