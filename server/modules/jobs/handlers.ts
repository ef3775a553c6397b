import { json, type OperationHandlers } from '../../platform/http/handler.ts';
import { ServiceUnavailable } from '../../platform/http/problem.ts';

/** The background job engine, seen from the superuser's side (README "Background jobs"). */
export const handlers = {
  async getJobStats({ query, app, log }) {
    if (!app.jobs.started) throw ServiceUnavailable('jobs_unavailable', 'The job engine is not started in this process.');
    try {
      return json(200, await app.jobs.stats({ failures: query.failures ?? 20 }));
    } catch (err) {
      log.error({ err }, 'job statistics: the engine did not answer');
      throw ServiceUnavailable('jobs_unavailable', 'The job engine does not answer.');
    }
  },
} satisfies Partial<OperationHandlers>;
