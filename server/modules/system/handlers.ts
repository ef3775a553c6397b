import type { OperationHandlers } from '../../platform/http/handler.ts';
import { bytes, etagMatches, json, notModified } from '../../platform/http/handler.ts';
import { DOCS_CSP, DOCS_HTML, docsScript } from './docs.ts';
import { NotFound, ServiceUnavailable } from '../../platform/http/problem.ts';
import { recordVisit } from './commands/recordVisit.ts';
import { pingDatabase } from './queries.ts';
import { visitStats } from './visits.ts';

const VERSION = process.env.npm_package_version ?? '0.1.0';

export const handlers = {
  getOpenApiDocument: ({ app }) => ({ status: 200, body: app.contract.text, contentType: 'application/yaml' }),

  getApiReference: () => ({
    status: 200,
    body: DOCS_HTML,
    contentType: 'text/html',
    headers: {
      'Content-Security-Policy': DOCS_CSP,
      'Cache-Control': 'no-cache',
      'X-Content-Type-Options': 'nosniff',
      'Referrer-Policy': 'no-referrer',
    },
  }),

  getApiReferenceScript: (call) => {
    const script = docsScript();
    const headers = { ETag: script.etag, 'Cache-Control': 'public, max-age=86400', 'X-Content-Type-Options': 'nosniff' };
    if (etagMatches(call.header('if-none-match') || undefined, script.etag)) return notModified(headers);
    return bytes<200>(script.bytes, 'text/javascript; charset=utf-8', { headers });
  },

  // Prometheus text (issue 25 §5); the token check is the access level's (x-access metrics-token).
  async getMetrics({ app }) {
    if (!app.metrics) throw NotFound('Metrics are off on this server.');
    return { status: 200, body: await app.metrics.scrape(), contentType: app.metrics.contentType, headers: { 'Cache-Control': 'no-store' } };
  },

  getLiveness: ({ app }) =>
    json(200, { status: 'live', uptimeSeconds: (Date.now() - app.startedAt) / 1000, version: VERSION }),

  async getReadiness({ app, log }) {
    const started = performance.now();
    try {
      await pingDatabase(app.db.knex);
    } catch (err) {
      log.error({ err }, 'readiness: database did not answer');
      throw ServiceUnavailable('database_unavailable', 'The database does not answer.');
    }
    const latencyMs = Math.round((performance.now() - started) * 100) / 100;
    // An engine this process never started (it only serves requests) is reported, not held against readiness;
    // one that was started and no longer answers is.
    const jobs = await app.jobs.health();
    if (jobs.started && !jobs.ok) {
      log.error({ error: jobs.error }, 'readiness: the job engine did not answer');
      throw ServiceUnavailable('jobs_unavailable', 'The job engine does not answer.');
    }
    return json(200, { status: 'ready', database: { kind: app.db.kind, latencyMs }, jobs: { started: jobs.started, workers: jobs.workers } });
  },

  // Visit counters (issue 11): nothing about the visitor is stored; see visits.ts.
  async recordVisit(call) {
    const input = { path: call.body.path, referrer: call.body.referrer, ip: call.ip, userAgent: call.header('user-agent'), header: (name: string) => call.header(name) };
    return json(202, await recordVisit(call.app, input), { 'Cache-Control': 'no-store' });
  },

  async getVisitStats({ app }) {
    return json(200, await visitStats(app.db.knex, new Date(), app.config.venueTimezone), { 'Cache-Control': 'public, max-age=5' });
  },
} satisfies Partial<OperationHandlers>;
