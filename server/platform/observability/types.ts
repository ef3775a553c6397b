import type { Knex } from 'knex';
import type Koa from 'koa';
import type { AppState } from '../http/state.ts';

/** An app's tracing (./tracing.ts `loadTracing` builds it from ./otel.ts when OTEL_EXPORTER_OTLP_ENDPOINT is set). */
export interface Tracing {
  /** The request span, first after the request id (the status it records is the error boundary's final one). */
  middleware: Koa.Middleware<AppState>;
  /** Runs a job's handler inside its span. */
  runJob<T>(queue: string, job: { id: string; attempt: number }, run: () => Promise<T>): Promise<T>;
  /** Spans for `knex`'s statements run under a span; answers the detach. */
  instrumentDatabase(knex: Knex): () => void;
  /** Sends the spans ended so far (tests; shutdown). */
  flush(): Promise<void>;
  /** Sends what is left and stops (the app's close). */
  shutdown(): Promise<void>;
}
