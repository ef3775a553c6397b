import fs from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { createApp, type App } from '../../server/app.ts';
import { loadConfig, type Config } from '../../server/platform/config.ts';
import type { Database } from '../../server/platform/db/database.ts';
import { clientErrorHandler } from '../../server/platform/http/clientError.ts';
import type { HandlerMap } from '../../server/platform/http/handler.ts';
import type { PolicyEntry } from '../../server/platform/http/policy.ts';
import { createJobEngine, type JobEngineOptions } from '../../server/platform/jobs/index.ts';
import { QUEUES } from '../../server/modules/index.ts';
import { createLogger } from '../../server/platform/logger.ts';
import { loadTracing } from '../../server/platform/observability/index.ts';
import { createClient, type ClientOptions, type VenueClient } from '../../sdk/index.ts';
import type { Contract } from '../../server/platform/http/contract.ts';
import type { Payable } from '../../server/domain/payables.ts';
import { LocalStorage, type StorageDriver } from '../../server/platform/storage/index.ts';
import { contract as sharedContract, contractMismatch as defaultMismatch, createContractChecker } from './contract.ts';
import { resetData, testDatabase } from './database.ts';

export const SUPERUSER_TOKEN = 'test-superuser-token-0123456789';
export const SECOND_SUPERUSER_TOKEN = 'test-superuser-token-second';

export interface TestResponse<T = any> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
  /** The body's exact bytes. */
  bytes: Buffer;
}

export interface RequestOptions {
  body?: unknown;
  /** Sent as is: a string (e.g. malformed JSON), bytes, a FormData (multipart), or a stream (sent chunked). */
  rawBody?: string | Buffer | Uint8Array | FormData | ReadableStream<Uint8Array>;
  headers?: Record<string, string>;
  /** Skip the contract check (only for deliberately undeclared traffic). */
  unchecked?: boolean;
}

export interface TestServer {
  baseUrl: string;
  app: App;
  db: Database;
  config: Config;
  /** Every log line the app wrote, parsed. */
  logs: Array<Record<string, any>>;
  request<T = any>(method: string, path: string, options?: RequestOptions): Promise<TestResponse<T>>;
  /** The SDK client on this server; every response it sees is checked against the contract too. */
  client(options?: Omit<ClientOptions, 'baseUrl' | 'fetch'>): VenueClient;
  close(): Promise<void>;
}

export interface TestJobsOptions extends Partial<Pick<JobEngineOptions, 'queues' | 'pollingIntervalSeconds' | 'maintenanceIntervalSeconds' | 'shutdownTimeoutMs'>> {
  /** Start workers (default false: jobs can be enqueued, and stay queued). */
  workers?: boolean;
}

/**
 * The real app on an ephemeral port over the run's test database, emptied first. Every response is checked
 * against openapi.yaml (a mismatch fails the test). The job engine is started without workers unless
 * `jobs.workers` asks for them; `jobs.queues` replaces the registered queues.
 */
export async function startTestServer(
  options: {
    config?: Partial<Config>;
    handlers?: HandlerMap;
    registry?: PolicyEntry[];
    keepData?: boolean;
    /** Another contract (a fixture under test/fixtures/); responses are then checked against it. */
    contract?: Contract;
    storage?: StorageDriver;
    jobs?: TestJobsOptions;
    /** What payments can settle (default: the modules' payables): a spec adds a payable of its own. */
    payables?: readonly Payable[];
  } = {},
): Promise<TestServer> {
  const db = await testDatabase();
  if (!options.keepData) await resetData(db.knex);
  const config: Config = {
    ...loadConfig({ NODE_ENV: 'test' }),
    superuserApiTokens: [SUPERUSER_TOKEN, SECOND_SUPERUSER_TOKEN],
    validateResponses: true,
    // Usage counts reach the database quickly, so specs can read them.
    apiKeyUsageFlushMs: 20,
    // The suite presents thousands of wrong credentials from 127.0.0.1 on purpose (the access matrix, the fuzzer, every
    // 401 test); the throttle's own spec (test/http/credentialThrottle.spec.ts) runs with the production default.
    credentialFailureLimit: 1_000_000,
    ...options.config,
  };
  const logs: Array<Record<string, any>> = [];
  const sink = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split('\n')) if (line.trim()) logs.push(JSON.parse(line));
      done();
    },
  });
  const logger = createLogger('debug', sink);
  // Blobs go to a fresh temp folder (removed on close) unless the spec brings its own store.
  const blobDir = options.storage ? undefined : await fs.mkdtemp(path.join(os.tmpdir(), 'venue-blobs-'));
  const storage = options.storage ?? new LocalStorage(blobDir!);
  const { workers = false, ...engineOptions } = options.jobs ?? {};
  const jobs = createJobEngine({ config, db, logger, queues: QUEUES, ...engineOptions });
  // openapi.yaml is loaded once per run and shared, so its compiled validators are too (server/platform/http/validation.ts).
  // As server/main.ts: the OpenTelemetry SDK only when the config names a collector.
  const tracing = await loadTracing(config, logger);
  const app = createApp({ config, db, logger, handlers: options.handlers, registry: options.registry, contract: options.contract ?? sharedContract, storage, jobs, tracing, payables: options.payables });
  await jobs.start({ workers, app: app.context });
  const contractMismatch = options.contract ? createContractChecker(options.contract).mismatch : defaultMismatch;
  const server = http.createServer(app.koa.callback());
  server.on('clientError', clientErrorHandler(logger));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  async function request<T>(method: string, path: string, opts: RequestOptions = {}): Promise<TestResponse<T>> {
    const headers: Record<string, string> = { ...opts.headers };
    let body: RequestInit['body'] = opts.rawBody as RequestInit['body'];
    if (opts.body !== undefined) {
      body = JSON.stringify(opts.body);
      headers['content-type'] ??= 'application/json';
    }
    const streaming = body instanceof ReadableStream;
    const response = await fetch(baseUrl + path, { method, headers, body, redirect: 'manual', ...(streaming ? { duplex: 'half' } : {}) } as RequestInit);
    const bytes = Buffer.from(await response.arrayBuffer());
    const text = bytes.toString('utf8');
    const type = response.headers.get('content-type');
    const parsed = type && /json/.test(type) && text ? JSON.parse(text) : text;
    if (!opts.unchecked) {
      const mismatch = contractMismatch(method, path, response.status, type, parsed);
      if (mismatch) throw new Error(`Contract violation: ${mismatch}\n${text.slice(0, 2000)}`);
    }
    return { status: response.status, headers: response.headers, body: parsed as T, text, bytes };
  }

  const checkedFetch: typeof fetch = async (input, init) => {
    const request = new Request(input, init);
    const response = await fetch(request);
    const text = await response.clone().text();
    const type = response.headers.get('content-type');
    const parsed = type && /json/.test(type) && text ? JSON.parse(text) : text;
    const mismatch = contractMismatch(request.method, new URL(request.url).pathname, response.status, type, parsed);
    if (mismatch) throw new Error(`Contract violation: ${mismatch}\n${text.slice(0, 2000)}`);
    return response;
  };

  return {
    baseUrl,
    app,
    db,
    config,
    logs,
    request,
    client: (clientOptions = {}) => createClient({ ...clientOptions, baseUrl, fetch: checkedFetch }),
    close: async () => {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await jobs.stop();
      await app.close();
      if (blobDir) await fs.rm(blobDir, { recursive: true, force: true });
    },
  };
}

export const asSuperuser = { 'x-api-token': SUPERUSER_TOKEN };
export const cookieHeader = (token: string) => ({ cookie: `venue_session=${token}` });
