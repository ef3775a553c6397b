import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Database } from './db/database.ts';

/**
 * Priming (issue 37 §1, "cold is warm"): what a process does once in its life is done before it listens, so the
 * first request after `listening` costs what later ones do. A module declares its part in its record (`prime`):
 * the hot paths it runs once without writing (a hold's statements in a transaction rolled back, say) and the
 * requests that walk its hot operations through the whole chain — each answered without writing anything (a
 * refusal, a read), so no row and no rate-limit point is spent.
 */
export interface PrimeRequest {
  method: 'GET' | 'POST';
  path: string;
  body?: unknown;
}

/** What a module's `prime` hands back: requests for the chain and operations whose validators to compile. */
export interface PrimeWork {
  requests?: PrimeRequest[];
  operations?: string[];
}

/** What a prime did, for the start-up log. */
export interface PrimeReport {
  connections: number;
  operations: number;
  requests: number;
  /** How many times each request was also sent at once (0: walked one at a time only). */
  burst: number;
  statuses: Record<string, number>;
  ms: number;
}

/** Marks a priming request in the access log (`requestId`), so it is told apart from a guest's. */
export const PRIME_REQUEST_ID = 'prime';

/**
 * Opens `count` connections of the pool at once (each acquired, then all released): the first requests of a rush
 * then find them open instead of each paying a connection's set-up (TLS, authentication, a backend started).
 */
export async function openConnections(db: Pick<Database, 'knex' | 'kind'>, count: number): Promise<number> {
  const client = db.knex.client as {
    acquireConnection(): Promise<unknown>;
    releaseConnection(connection: unknown): Promise<unknown>;
    pool?: { numUsed(): number; numPendingAcquires(): number };
  };
  // Never more than the pool has free now: a connection held elsewhere (a listener) would make an acquire wait.
  const busy = client.pool ? client.pool.numUsed() + client.pool.numPendingAcquires() : 0;
  const n = db.kind === 'postgres' ? Math.max(0, count - busy) : 1;
  const connections = await Promise.all(Array.from({ length: n }, () => client.acquireConnection()));
  await Promise.all(connections.map((connection) => client.releaseConnection(connection)));
  return n;
}

/**
 * Sends `requests` (each `times` times, one at a time, then each `burst` times at once over as many connections)
 * through `callback` — the app's request chain — on a server of its own on an ephemeral loopback port, closed
 * afterwards. Returns how many answers each status had.
 */
export async function walkChain(callback: http.RequestListener, requests: PrimeRequest[], times = 2, burst = 0): Promise<Record<string, number>> {
  const statuses: Record<string, number> = {};
  if (!requests.length) return statuses;
  const server = http.createServer(callback);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const crowd = new http.Agent({ keepAlive: true, maxSockets: Math.max(1, burst) });
  const count = (status: number) => (statuses[status] = (statuses[status] ?? 0) + 1);
  try {
    for (let round = 0; round < times; round++) {
      for (const request of requests) count(await send(port, agent, request));
    }
    // A crowd's first burst: many connections accepted at once and as many requests in flight (the heap grown to
    // what a rush needs, the pool's queue and the server's many-sockets paths run) — what a rush's first round met.
    if (burst > 0) for (const request of requests) (await Promise.all(Array.from({ length: burst }, () => send(port, crowd, request)))).forEach(count);
  } finally {
    agent.destroy();
    crowd.destroy();
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
  return statuses;
}

function send(port: number, agent: http.Agent, request: PrimeRequest): Promise<number> {
  const body = request.body === undefined ? undefined : Buffer.from(JSON.stringify(request.body));
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        agent,
        method: request.method,
        path: request.path,
        headers: { 'x-request-id': PRIME_REQUEST_ID, ...(body ? { 'content-type': 'application/json', 'content-length': body.length } : {}) },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}
