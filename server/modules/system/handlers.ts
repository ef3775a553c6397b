import type { OperationHandlers } from '../../http/handler.ts';
import { json } from '../../http/handler.ts';
import { ServiceUnavailable } from '../../http/problem.ts';

const VERSION = process.env.npm_package_version ?? '0.1.0';

export const handlers = {
  getOpenApiDocument: ({ app }) => ({ status: 200, body: app.contract.text, contentType: 'application/yaml' }),

  getLiveness: ({ app }) =>
    json(200, { status: 'live', uptimeSeconds: (Date.now() - app.startedAt) / 1000, version: VERSION }),

  async getReadiness({ app, log }) {
    const started = performance.now();
    try {
      await app.db.knex.raw('select 1');
    } catch (err) {
      log.error({ err }, 'readiness: database did not answer');
      throw ServiceUnavailable('database_unavailable', 'The database does not answer.');
    }
    const latencyMs = Math.round((performance.now() - started) * 100) / 100;
    return json(200, { status: 'ready', database: { kind: app.db.kind, latencyMs } });
  },
} satisfies Partial<OperationHandlers>;
