import { createHash, timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { secretList } from '../auth/secrets.ts';
import type { Logger } from '../logger.ts';
import type { Metrics } from './metrics.ts';

/**
 * The metrics server of METRICS_PORT: a tiny HTTP server apart from the API (no middleware chain, no contract), so a
 * scrape never queues behind the API's requests and the port can stay on a private network. `GET /metrics` answers
 * the exposition text (with METRICS_TOKEN set, only to `Authorization: Bearer <METRICS_TOKEN>`: 401 otherwise);
 * anything else is 404 (405 for another method on /metrics). Answers are plain text: Prometheus reads nothing else.
 */
export interface MetricsServer {
  port: number;
  url: string;
  close(): Promise<void>;
}

const digest = (value: string) => createHash('sha256').update(value).digest();

export async function startMetricsServer(metrics: Metrics, options: { port: number; host: string; token?: string; logger: Logger }): Promise<MetricsServer> {
  // One token, or several comma-separated while it is rotated.
  const expected = options.token ? secretList(options.token).map(digest) : undefined;
  const log = options.logger.child({ component: 'metrics' });
  const server = http.createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0].replace(/\/+$/, '') || '/';
    const answer = (status: number, text: string, headers: Record<string, string> = {}) => {
      res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store', ...headers });
      res.end(req.method === 'HEAD' ? undefined : text);
    };
    if (path !== '/metrics') return answer(404, 'Not found: metrics are at /metrics.\n');
    if (req.method !== 'GET' && req.method !== 'HEAD') return answer(405, 'Method not allowed.\n', { allow: 'GET, HEAD' });
    if (expected) {
      const presented = /^Bearer\s+(.+)$/i.exec(req.headers.authorization ?? '')?.[1]?.trim();
      const given = presented ? digest(presented) : undefined;
      if (!given || !expected.reduce((match, candidate) => timingSafeEqual(given, candidate) || match, false)) return answer(401, 'Present the metrics token as a Bearer token.\n', { 'www-authenticate': 'Bearer realm="metrics"' });
    }
    metrics.scrape().then(
      (text) => {
        res.writeHead(200, { 'content-type': metrics.contentType, 'cache-control': 'no-store' });
        res.end(req.method === 'HEAD' ? undefined : text);
      },
      (err: unknown) => {
        log.error({ err }, 'metrics scrape failed');
        answer(500, 'The metrics could not be collected.\n');
      },
    );
  });
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  const host = options.host === '0.0.0.0' || options.host === '::' ? '127.0.0.1' : options.host;
  log.info({ port, host: options.host, token: Boolean(expected) }, 'metrics served on their own port');
  return {
    port,
    url: `http://${host.includes(':') ? `[${host}]` : host}:${port}/metrics`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
      }),
  };
}
