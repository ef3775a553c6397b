import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { createScratchDatabase, type ScratchDatabase } from '../helpers/scratchDatabase.ts';
import { startServerProcess, type ServerProcess } from '../helpers/serverProcess.ts';

/**
 * `npm start` primes before it listens (issue 37 §1, server/main.ts): on PostgreSQL the pool's ten connections
 * opened and the hot operations walked through the chain, all before the `listening` line, so readiness (and
 * anything else) cannot answer a cold process; a worker only opens its connections.
 */
describe('start-up: primed before listening, on PostgreSQL @db', function () {
  this.timeout(300_000);
  let db: ScratchDatabase;
  let dataDir: string;
  const processes: ServerProcess[] = [];

  before(async function () {
    if (!process.env.DATABASE_URL) this.skip();
    db = await createScratchDatabase('venue_primed');
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'venue-primed-'));
  });
  after(async () => {
    await Promise.all(processes.map((p) => p.stop()));
    await db?.drop();
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  });
  afterEach(function () {
    if (this.currentTest?.state === 'failed') for (const p of processes) console.log(p.output().split('\n').slice(-40).join('\n'));
  });

  const start = async (name: string, role: string) => {
    const p = await startServerProcess({
      name,
      env: { PROCESS_ROLE: role, DATABASE_URL: db.url, DATA_DIR: dataDir, LOG_LEVEL: 'debug', ASSISTANT_API_BASE_URL: 'http://127.0.0.1:9' },
    });
    processes.push(p);
    return p;
  };
  const order = (p: ServerProcess) => p.logs().map((line) => line.msg).filter((msg) => msg === 'primed' || msg === 'listening');

  it('an API process: the connections opened and the chain walked, every answer below 500, before it listens', async () => {
    const api = await start('api', 'api');
    expect(order(api)).to.deep.equal(['primed', 'listening']);
    const { primed } = api.logs().find((line) => line.msg === 'primed')!;
    expect(primed.connections).to.equal(10);
    expect(primed.requests).to.be.at.least(6);
    expect(Object.keys(primed.statuses).filter((status) => Number(status) >= 500)).to.deep.equal([]);
  });

  it('a worker: its connections only (it serves no API)', async () => {
    const worker = await start('worker', 'worker');
    expect(order(worker)).to.deep.equal(['primed', 'listening']);
    expect(worker.logs().find((line) => line.msg === 'primed')!.primed).to.include({ connections: 10, requests: 0 });
  });
});
