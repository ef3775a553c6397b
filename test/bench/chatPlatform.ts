/**
 * Bench row C2 (issue 10): the chat-platform webhook's acknowledgement latency while turns generate in the
 * background, against the public no-database operation (GET /api/system/health/live) of the same app in the same
 * run. Target: ack p99 ≤ 2 × liveness p99.
 *
 * Child (`chat-platform` target of test/bench/server.ts): the real app as server/main.ts builds it, job workers on,
 * `CHAT_WEBHOOK_TOKEN` set, `CHAT_API_BASE_URL` pointing at a slow fake ManyChat in the same child (every
 * sendContent answers after BENCH_CHAT_PLATFORM_SEND_MS, default 1500 ms), and a scripted slow agent injected with
 * `useAssistant` (each answer after 1–3 s, BENCH_CHAT_PLATFORM_AGENT_MS the upper bound), so generation and the send
 * both take seconds, as they do for real.
 *
 * Parent: queues 50 turns first (not measured), then for BENCH_CHAT_PLATFORM_ROUNDS rounds (5) measures, in alternating
 * order, BENCH_CHAT_PLATFORM_REQUESTS (200) acknowledgements and as many liveness requests, over BENCH_CONNECTIONS (10)
 * connections. Every measured acknowledgement queues a turn too, so at least 50 turns are generating, sending or
 * waiting throughout. Figures: medians over the rounds of each side's p50 and p99 (ms, autocannon's histogram).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import autocannon from 'autocannon';

export const CHAT_TOKEN = 'bench-chat-webhook-token-0123456789';
const LIVE_PATH = '/api/system/health/live';
const CHAT_PATH = '/llm/chat-platform';

const num = (name: string, fallback: number) => {
  const value = Number(process.env[name]);
  return Number.isFinite(value) && value > 0 ? value : fallback;
};

// ---- child side ----

/** The app with workers, a slow fake ManyChat and a slow scripted agent; `stats` counts what ManyChat received. */
export async function chatPlatformTarget() {
  const { createApp } = await import('../../server/app.ts');
  const { useAssistant } = await import('../../server/assistant/index.ts');
  const { loadConfig } = await import('../../server/platform/config.ts');
  const { openConfiguredDatabase } = await import('../../server/platform/db/database.ts');
  const { migrateLatest } = await import('../../server/platform/db/migrations.ts');
  const { createJobEngine } = await import('../../server/platform/jobs/index.ts');
  const { QUEUES } = await import('../../server/modules/index.ts');
  const { createLogger } = await import('../../server/platform/logger.ts');

  const sendDelay = num('BENCH_CHAT_PLATFORM_SEND_MS', 1500);
  const agentMax = num('BENCH_CHAT_PLATFORM_AGENT_MS', 3000);
  let sent = 0;
  const manychat = http.createServer((req, res) => {
    req.resume();
    req.on('end', () =>
      setTimeout(() => {
        sent++;
        res.writeHead(200, { 'content-type': 'application/json' }).end('{"status":"success"}');
      }, sendDelay),
    );
  });
  await new Promise<void>((resolve) => manychat.listen(0, '127.0.0.1', resolve));

  const base = loadConfig();
  const config = { ...base, chatApi: { ...base.chatApi, baseUrl: `http://127.0.0.1:${(manychat.address() as AddressInfo).port}`, token: 'bench-manychat-token' } };
  const logger = createLogger(config.logLevel);
  const db = openConfiguredDatabase(config);
  await migrateLatest(db.knex);
  const jobs = createJobEngine({ config, db, logger, queues: QUEUES });
  const { koa, context, close } = createApp({ config, db, logger, jobs });
  let generated = 0;
  useAssistant(context, {
    async reply(turn) {
      await new Promise((resolve) => setTimeout(resolve, Math.min(1000, agentMax) + Math.random() * Math.max(0, agentMax - 1000)));
      generated++;
      return { text: `(${turn.locale}) Doors open at 18:00; the show starts at 19:30.`, links: [], audit: { invalid: [] } };
    },
  });
  await jobs.start({ app: context });
  const server = http.createServer(koa.callback());
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    server,
    extra: { database: db.kind },
    stats: async () => ({ generated, sent }),
    cleanup: async () => {
      await jobs.stop().catch(() => {});
      await close().catch(() => {});
      if (db.kind === 'postgres') {
        // The row's turns and their jobs (still queued ones too), so the next run starts from an empty queue.
        await db.knex('chat_turns').where({ source: 'chat-platform' }).delete().catch(() => {});
        await db.knex.raw(`delete from pgboss.job where name = 'chatPlatform.turn'`).catch(() => {});
      }
      manychat.closeAllConnections();
      manychat.close();
      await db.close();
    },
  };
}

// ---- parent side ----

interface ChatChild {
  port: number;
  /** `postgres` or `embedded`: the target is judged on PostgreSQL only. */
  database?: string;
  stats(): Promise<Record<string, number> | undefined>;
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

let subscriber = 1_000_000;
const ackBody = () => JSON.stringify({ channel: 'instagram', locale: 'vi_VN', subscriber_id: subscriber++, last_input_text: 'Tối thứ bảy này còn chỗ không?' });

async function drive(port: number, path: string, amount: number, connections: number, post: boolean) {
  const result = await autocannon({
    url: `http://127.0.0.1:${port}${path}`,
    connections,
    pipelining: 1,
    amount,
    ...(post
      ? { method: 'POST' as const, headers: { 'content-type': 'application/json', 'x-svc-chat-token': CHAT_TOKEN }, body: ackBody() }
      : {}),
  });
  const bad = result.non2xx + result.errors + result.timeouts;
  if (bad > 0) throw new Error(`${path}: ${result.non2xx} non-2xx, ${result.errors} errors, ${result.timeouts} timeouts`);
  return { p50: result.latency.p50, p99: result.latency.p99, rps: result.requests.average };
}

export interface ChatPlatformRow {
  id: 'C2';
  description: string;
  rounds: number;
  requestsPerRound: number;
  backgroundTurns: number;
  ackP50Ms: number;
  ackP99Ms: number;
  liveP50Ms: number;
  liveP99Ms: number;
  ratio: number;
  target: number;
  pass: boolean;
  database: string;
  /** False on the embedded database: figures only (see printChatPlatform). */
  judged: boolean;
  generated?: number;
  sent?: number;
}

export async function measureChatPlatform(child: ChatChild, connections: number): Promise<ChatPlatformRow> {
  const rounds = num('BENCH_CHAT_PLATFORM_ROUNDS', 5);
  const amount = num('BENCH_CHAT_PLATFORM_REQUESTS', 200);
  const backgroundTurns = 50;
  // The acknowledgement must be the v2 block, or the figures mean nothing.
  const probe = await fetch(`http://127.0.0.1:${child.port}${CHAT_PATH}`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-svc-chat-token': CHAT_TOKEN }, body: ackBody() });
  const block = (await probe.json()) as { version?: string };
  if (probe.status !== 200 || block.version !== 'v2') throw new Error(`chat-platform: expected 200 with a v2 block, got ${probe.status} ${JSON.stringify(block)}`);
  // Warm-up of both paths, then the 50 background turns.
  await drive(child.port, LIVE_PATH, 200, connections, false);
  await drive(child.port, CHAT_PATH, backgroundTurns - 1, connections, true);
  const ack: Array<{ p50: number; p99: number }> = [];
  const live: Array<{ p50: number; p99: number }> = [];
  for (let round = 0; round < rounds; round++) {
    const order = round % 2 ? (['ack', 'live'] as const) : (['live', 'ack'] as const);
    for (const side of order) {
      if (side === 'ack') ack.push(await drive(child.port, CHAT_PATH, amount, connections, true));
      else live.push(await drive(child.port, LIVE_PATH, amount, connections, false));
    }
    console.log(`bench: chat-platform round ${round + 1}/${rounds}: ack p50 ${ack[round].p50} p99 ${ack[round].p99} ms, liveness p50 ${live[round].p50} p99 ${live[round].p99} ms`);
  }
  const stats = await child.stats();
  const row: ChatPlatformRow = {
    id: 'C2',
    description: 'chat-platform ack p99 / liveness p99',
    rounds,
    requestsPerRound: amount,
    backgroundTurns,
    ackP50Ms: median(ack.map((s) => s.p50)),
    ackP99Ms: median(ack.map((s) => s.p99)),
    liveP50Ms: median(live.map((s) => s.p50)),
    liveP99Ms: median(live.map((s) => s.p99)),
    ratio: 0,
    target: 2,
    pass: false,
    database: child.database ?? 'embedded',
    judged: child.database === 'postgres',
    generated: stats?.generated,
    sent: stats?.sent,
  };
  row.ratio = row.ackP99Ms / Math.max(1, row.liveP99Ms);
  // On the embedded database the target is not judged: PGlite runs every statement on the server's own thread
  // through its one connection, so a request that writes waits behind the workers' statements and blocks the
  // loop for its own, while liveness does neither; the acknowledgement's durable write is what is measured.
  row.pass = !row.judged || row.ratio <= row.target;
  return row;
}

export function printChatPlatform(row: ChatPlatformRow): void {
  console.log('');
  console.log(
    `C2  chat-platform acknowledgement while turns generate (${row.backgroundTurns} queued first, slow agent and sendContent; ` +
      `${row.rounds} rounds × ${row.requestsPerRound} requests): ack p50 ${row.ackP50Ms} ms, p99 ${row.ackP99Ms} ms; ` +
      `liveness p50 ${row.liveP50Ms} ms, p99 ${row.liveP99Ms} ms`,
  );
  const verdict = row.judged ? (row.pass ? 'PASS' : 'MISS') : 'not judged on embedded PGlite (the target applies on PostgreSQL: set DATABASE_URL)';
  console.log(
    `C2  ack p99 / liveness p99 = ${row.ratio.toFixed(2)}  target ≤ ${row.target.toFixed(2)}  ${verdict}` +
      `   (turns generated ${row.generated ?? '?'}, sent ${row.sent ?? '?'} by the end of the row)`,
  );
}
