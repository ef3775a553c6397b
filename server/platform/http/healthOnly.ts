import { randomUUID } from 'node:crypto';
import type http from 'node:http';
import { PROBLEM_TYPE_BASE } from './errors.ts';
import type { GenericProblemCode } from './problemCodes.ts';

/** The probes a worker process answers: the same paths, and the same answers, as an API process's. */
export const HEALTH_PATHS: ReadonlySet<string> = new Set(['/api/system/health/live', '/api/system/health/ready']);

/**
 * The listener of a `PROCESS_ROLE=worker` process: the health probes go to the app (liveness; readiness checks the
 * database and the job engine), so an orchestrator probes workers as it probes API processes; every other request is
 * answered 404 problem+json without reaching the app: a worker serves no API, whatever a misrouted load balancer sends.
 */
export function healthOnly(app: (req: http.IncomingMessage, res: http.ServerResponse) => void): (req: http.IncomingMessage, res: http.ServerResponse) => void {
  return (req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    if ((req.method === 'GET' || req.method === 'HEAD') && HEALTH_PATHS.has(path)) return app(req, res);
    const requestId = randomUUID();
    const code: GenericProblemCode = 'not_found';
    const body = JSON.stringify({
      type: PROBLEM_TYPE_BASE + code,
      title: 'Not Found',
      status: 404,
      code,
      detail: 'This process runs job workers only (PROCESS_ROLE=worker): it answers the health probes, not the API.',
      requestId,
    });
    // The request body (if any) is not read: drain it so the connection can be reused.
    req.resume();
    res.writeHead(404, { 'content-type': 'application/problem+json; charset=utf-8', 'content-length': Buffer.byteLength(body), 'x-request-id': requestId });
    res.end(req.method === 'HEAD' ? undefined : body);
  };
}
