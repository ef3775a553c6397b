import { execFile } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { expect } from 'chai';
import { ConfigError, loadConfig } from '../../server/platform/config.ts';
import type { QueueDefinition } from '../../server/platform/jobs/types.ts';
import { eventually } from '../helpers/eventually.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';

/**
 * Tracing (issue 25 §6) against a local fake OTLP collector: a span per request (operationId, status, request id),
 * per database statement (a child of the span it ran under), per job and per outbound call; W3C trace context in
 * and out. With OTEL_EXPORTER_OTLP_ENDPOINT unset nothing of the OpenTelemetry SDK is loaded (checked in a fresh
 * process: this one has loaded it by then).
 */

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  attributes: Record<string, unknown>;
}

/** A collector that keeps what is posted to /v1/traces, and a peer that records the traceparent it is sent. */
async function startCollector() {
  const bodies: any[] = [];
  const peerCalls: Array<string | undefined> = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk) => chunks.push(chunk));
    req.on('end', () => {
      if (req.method === 'POST' && req.url === '/v1/traces') {
        bodies.push({ type: req.headers['content-type'], body: JSON.parse(Buffer.concat(chunks).toString('utf8')) });
        res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      } else if (req.url === '/peer') {
        peerCalls.push(req.headers.traceparent as string | undefined);
        res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
      } else {
        res.writeHead(404).end();
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const value = (v: any): unknown => v?.stringValue ?? (v?.intValue !== undefined ? Number(v.intValue) : v?.boolValue ?? v?.doubleValue);
  return {
    url,
    bodies,
    peerCalls,
    spans(): OtlpSpan[] {
      return bodies.flatMap(({ body }) =>
        body.resourceSpans.flatMap((rs: any) =>
          rs.scopeSpans.flatMap((ss: any) =>
            ss.spans.map((span: any) => ({
              ...span,
              attributes: Object.fromEntries((span.attributes ?? []).map((a: any) => [a.key, value(a.value)])),
            })),
          ),
        ),
      );
    },
    resources: () => bodies.flatMap(({ body }) => body.resourceSpans.map((rs: any) => Object.fromEntries(rs.resource.attributes.map((a: any) => [a.key, value(a.value)])))),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe('tracing: OpenTelemetry spans to an OTLP/HTTP collector @db', () => {
  let collector: Awaited<ReturnType<typeof startCollector>>;
  let server: TestServer;
  const done: string[] = [];
  const probe: QueueDefinition<{ n: number }> = {
    name: 'tracing.probe',
    retryLimit: 0,
    retryDelay: 1,
    retryBackoff: false,
    expireInSeconds: 60,
    async handler(data, job) {
      await job.app!.db.knex.raw('select ? as probe', [data.n]);
      await fetch(`${collector.url}/peer`);
      done.push(job.id);
    },
  };

  before(async function () {
    // The run's first test database is migrated on first use: slow on a busy machine.
    this.timeout(120_000);
    collector = await startCollector();
    server = await startTestServer({
      config: { tracing: { endpoint: collector.url, serviceName: 'venue-test' } },
      jobs: { workers: true, queues: [probe], pollingIntervalSeconds: 0.5 },
    });
  });
  after(async () => {
    await server?.close();
    await collector?.close();
  });

  it('a request: its span names the operation, carries the status and the request id; its statements are its children', async () => {
    const res = await server.request('GET', '/api/system/health/ready', { headers: { 'x-request-id': 'trace-request-1' } });
    expect(res.status).to.equal(200);
    await server.app.context.tracing!.flush();
    const spans = collector.spans();
    const request = spans.find((span) => span.attributes['venue.request_id'] === 'trace-request-1');
    expect(request, JSON.stringify(spans.map((s) => s.name))).to.not.equal(undefined);
    expect(request!).to.deep.include({ name: 'GET /api/system/health/ready', kind: 2 });
    expect(request!.attributes).to.deep.include({ 'venue.operation_id': 'getReadiness', 'http.response.status_code': 200, 'http.route': '/api/system/health/ready', 'http.request.method': 'GET' });
    expect(request!.parentSpanId || undefined).to.equal(undefined);
    const statements = spans.filter((span) => span.parentSpanId === request!.spanId && span.attributes['db.system.name'] === 'postgresql');
    expect(statements.length, 'database statement spans under the request').to.be.at.least(1);
    expect(statements[0].traceId).to.equal(request!.traceId);
    expect(statements[0].kind).to.equal(3);
    expect(statements[0].name).to.equal('SELECT');
    expect(collector.resources()[0]).to.include({ 'service.name': 'venue-test' });
    expect(collector.bodies[0].type).to.match(/^application\/json/);
  });

  it('continues a caller\'s trace (traceparent), and names an unrouted request by its method only', async () => {
    const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
    const parent = '00f067aa0ba902b7';
    await server.request('GET', '/api/system/health/live', { headers: { traceparent: `00-${traceId}-${parent}-01`, 'x-request-id': 'trace-request-2' } });
    await server.request('GET', '/no/such/route', { headers: { 'x-request-id': 'trace-request-3' }, unchecked: true });
    await server.app.context.tracing!.flush();
    const spans = collector.spans();
    const live = spans.find((span) => span.attributes['venue.request_id'] === 'trace-request-2')!;
    expect(live).to.deep.include({ traceId, parentSpanId: parent });
    expect(live.attributes['venue.operation_id']).to.equal('getLiveness');
    const unknown = spans.find((span) => span.attributes['venue.request_id'] === 'trace-request-3')!;
    expect(unknown.name).to.equal('GET');
    expect(unknown.attributes).to.include({ 'http.response.status_code': 404 });
    expect(unknown.attributes).to.not.have.property('venue.operation_id');
  });

  it('a job: its span is the parent of its statements and of its outbound call, which carries the trace onward', async () => {
    const id = await server.app.context.jobs.enqueue('tracing.probe', { n: 7 });
    await eventually(() => done.includes(id!), { timeoutMs: 10_000, what: 'the probe job' });
    await server.app.context.tracing!.flush();
    const spans = collector.spans();
    const job = spans.find((span) => span.name === 'job tracing.probe' && span.attributes['messaging.message.id'] === id)!;
    expect(job, JSON.stringify(spans.map((s) => s.name))).to.not.equal(undefined);
    expect(job.kind).to.equal(5);
    expect(job.attributes).to.include({ 'messaging.destination.name': 'tracing.probe', 'venue.job.attempt': 1 });
    const children = spans.filter((span) => span.parentSpanId === job.spanId);
    const statement = children.find((span) => String(span.attributes['db.query.text']).includes('as probe'));
    expect(statement, JSON.stringify(children.map((s) => s.name))).to.not.equal(undefined);
    const outbound = children.find((span) => span.kind === 3 && span.attributes['http.request.method'] === 'GET' && span.attributes['url.full'] === `${collector.url}/peer`);
    expect(outbound, JSON.stringify(children.map((s) => s.name))).to.not.equal(undefined);
    expect(outbound!.attributes).to.include({ 'http.response.status_code': 200 });
    expect(collector.peerCalls.at(-1)).to.equal(`00-${job.traceId}-${outbound!.spanId}-01`);
  });

  it('leaves calls made outside any span alone (the test client\'s own requests carry no traceparent)', async () => {
    const before = collector.peerCalls.length;
    await fetch(`${collector.url}/peer`);
    expect(collector.peerCalls.length).to.equal(before + 1);
    expect(collector.peerCalls.at(-1)).to.equal(undefined);
  });

  it('reads its settings: an http(s) endpoint, a service name', () => {
    expect(loadConfig({}).tracing).to.deep.equal({ endpoint: undefined, serviceName: 'venue-backend' });
    expect(loadConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318/', OTEL_SERVICE_NAME: 'venue-eu' }).tracing).to.deep.equal({ endpoint: 'http://collector:4318', serviceName: 'venue-eu' });
    expect(() => loadConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'collector:4318' })).to.throw(ConfigError, /OTEL_EXPORTER_OTLP_ENDPOINT/);
    expect(() => loadConfig({ OTEL_SERVICE_NAME: 'two words' })).to.throw(ConfigError, /OTEL_SERVICE_NAME/);
  });

  it('off by default: an app without the endpoint loads nothing of the OpenTelemetry SDK and sends nothing (a fresh process)', async function () {
    // Two fresh processes each import the whole app: generous on a busy machine.
    this.timeout(240_000);
    const script = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'tracing-off-')), 'probe.mts');
    fs.writeFileSync(
      script,
      `
import http from 'node:http';
import { createRequire } from 'node:module';
import { createApp } from ${JSON.stringify(path.join(ROOT, 'server/app.ts'))};
import { loadConfig } from ${JSON.stringify(path.join(ROOT, 'server/platform/config.ts'))};
import { openDatabase } from ${JSON.stringify(path.join(ROOT, 'server/platform/db/database.ts'))};
import { createLogger } from ${JSON.stringify(path.join(ROOT, 'server/platform/logger.ts'))};
import { loadTracing, tracingLoaded } from ${JSON.stringify(path.join(ROOT, 'server/platform/observability/tracing.ts'))};
const config = { ...loadConfig({ NODE_ENV: 'test', ...(process.env.PROBE_ENDPOINT ? { OTEL_EXPORTER_OTLP_ENDPOINT: process.env.PROBE_ENDPOINT } : {}) }), validateResponses: false };
const logger = createLogger('silent');
const fetchBefore = globalThis.fetch;
const tracing = await loadTracing(config, logger);
const db = openDatabase({ dataDir: 'memory' });
const app = createApp({ config, db, logger, tracing });
const server = http.createServer(app.koa.callback());
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const status = (await fetchBefore('http://127.0.0.1:' + server.address().port + '/api/system/health/live')).status;
const sdk = Object.keys(createRequire(import.meta.url).cache).filter((file) => /@opentelemetry[\\\\/](?!api[\\\\/])/.test(file));
console.log(JSON.stringify({ status, tracing: Boolean(app.context.tracing), tracingLoaded, sdkModules: sdk.length, fetchWrapped: globalThis.fetch !== fetchBefore }));
server.close();
await app.close();
process.exit(0);
`,
    );
    const run = async (env: Record<string, string>) => {
      const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', script], { cwd: ROOT, env: { ...process.env, ...env } });
      return JSON.parse(stdout.trim().split('\n').at(-1)!);
    };
    const before = collector.bodies.length;
    expect(await run({})).to.deep.equal({ status: 200, tracing: false, tracingLoaded: false, sdkModules: 0, fetchWrapped: false });
    // The probe can tell: the same process with the endpoint set loads the SDK (and its span reaches the collector).
    const on = await run({ PROBE_ENDPOINT: collector.url });
    expect(on).to.deep.include({ status: 200, tracing: true, tracingLoaded: true, fetchWrapped: true });
    expect(on.sdkModules).to.be.greaterThan(0);
    await eventually(() => collector.bodies.length > before, { timeoutMs: 5_000, what: 'the fresh process\'s spans' });
    fs.rmSync(path.dirname(script), { recursive: true, force: true });
  });
});
