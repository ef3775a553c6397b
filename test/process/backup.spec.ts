import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { Model } from 'objection';
import pg from 'pg';
import { openDatabase, type Database } from '../../server/platform/db/database.ts';
import { bookableEvent, contact } from '../modules/booking/factories.ts';

const TOKEN = 'backup-test-superuser-token-0123456789';

/** pg_dump / pg_restore: on PATH, else the newest of /usr/lib/postgresql/<version>/bin (Debian's layout). */
function pgTool(name: 'pg_dump' | 'pg_restore'): string {
  const root = '/usr/lib/postgresql';
  const versions = fs.existsSync(root) ? fs.readdirSync(root).filter((v) => fs.existsSync(path.join(root, v, 'bin', name))).sort((a, b) => Number(b) - Number(a)) : [];
  return versions.length ? path.join(root, versions[0], 'bin', name) : name;
}

/** A database URL on the same server as DATABASE_URL, naming `database`. */
function urlOf(database: string): string {
  const url = new URL(process.env.DATABASE_URL!);
  url.pathname = `/${database}`;
  return url.toString();
}

interface Server {
  child: ChildProcess;
  baseUrl: string;
  output: () => string;
}

/** `npm start` on `databaseUrl` as an operator runs it after a restore: the server process, its base URL once listening. */
async function startServer(databaseUrl: string, dataDir: string): Promise<Server> {
  const env: NodeJS.ProcessEnv = { ...process.env, DATABASE_URL: databaseUrl, DATA_DIR: dataDir, SUPERUSER_API_TOKENS: TOKEN, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info', TRUST_PROXY: 'true' };
  delete env.SUPERUSER_API_TOKEN;
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  const baseUrl = await new Promise<string>((resolve, reject) => {
    const timer = setInterval(() => {
      const match = /"baseUrl":"(http:\/\/[^"]+)"/.exec(output);
      if (match) {
        clearInterval(timer);
        resolve(match[1]);
      }
    }, 50);
    child.once('exit', (code) => {
      clearInterval(timer);
      reject(new Error(`the server exited (${code}) before listening:\n${output}`));
    });
  });
  return { child, baseUrl, output: () => output };
}

async function stop(server: Server | undefined): Promise<void> {
  if (!server || server.child.exitCode !== null) return;
  const exited = new Promise((resolve) => server.child.once('exit', resolve));
  server.child.kill('SIGTERM');
  await exited;
}

/**
 * docs/operations.md "Backups and restore", done: a database holding a booking (made through the API) is dumped
 * with `pg_dump`, restored with `pg_restore` into a new database, and the app started on the restored database
 * serves the booking. PostgreSQL only (skipped without DATABASE_URL); its two databases are its own, dropped after.
 */
describe('backup and restore with pg_dump / pg_restore @db', function () {
  this.timeout(180_000);
  const suffix = `${process.pid}_${Date.now()}`;
  const source = `venue_backup_src_${suffix}`;
  const restored = `venue_backup_dst_${suffix}`;
  let admin: pg.Client | undefined;
  let db: Database | undefined;
  let previousKnex: ReturnType<typeof Model.knex> | undefined;
  let server: Server | undefined;
  const dirs: string[] = [];

  before(async function () {
    if (!process.env.DATABASE_URL) this.skip();
    admin = new pg.Client({ connectionString: urlOf('postgres') });
    await admin.connect();
    await admin.query(`create database ${source}`);
  });

  after(async () => {
    await stop(server);
    if (db) await db.close();
    // The factories' models go back to the run's database.
    if (previousKnex) Model.knex(previousKnex);
    if (admin) {
      for (const name of [source, restored]) await admin.query(`drop database if exists ${name} with (force)`);
      await admin.end();
    }
    for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('restores a database with a booking into a new database, and the app serves the booking from it', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'venue-backup-'));
    const dump = path.join(dataDir, 'venue.dump');
    dirs.push(dataDir);

    // The source: migrated by the server's own start, a bookable event written by the factories, a hold through the API.
    server = await startServer(urlOf(source), dataDir);
    previousKnex = Model.knex();
    db = openDatabase({ databaseUrl: urlOf(source) });
    const { event, offer } = await bookableEvent({ price: 1_200_000 });
    const hold = await fetch(`${server.baseUrl}/api/public/reservations`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': '10.9.8.7' },
      body: JSON.stringify({ eventSlug: event.slug, offerCode: offer.code, guestCount: 3, contact: contact(7) }),
    });
    const booking = (await hold.json()) as { reference: string; accessToken: string; status: string };
    expect(hold.status, JSON.stringify(booking)).to.equal(201);
    const [{ id: reservationId }] = await db.knex('reservations').where({ reference: booking.reference }).select('id');
    await db.close();
    db = undefined;
    Model.knex(previousKnex);
    await stop(server);
    server = undefined;

    // The backup and the restore, as docs/operations.md gives them.
    execFileSync(pgTool('pg_dump'), ['--format=custom', '--no-owner', `--file=${dump}`, urlOf(source)], { stdio: 'pipe' });
    expect(fs.statSync(dump).size).to.be.greaterThan(0);
    await admin!.query(`create database ${restored}`);
    execFileSync(pgTool('pg_restore'), ['--no-owner', '--exit-on-error', `--dbname=${urlOf(restored)}`, dump], { stdio: 'pipe' });

    // The app on the restored database: nothing left to migrate, the booking readable by the guest and by staff.
    server = await startServer(urlOf(restored), dataDir);
    expect(server.output()).not.to.contain('migrations applied');
    const ready = await fetch(`${server.baseUrl}/api/system/health/ready`);
    expect(ready.status).to.equal(200);
    const guest = await fetch(`${server.baseUrl}/api/public/reservations/${booking.reference}`, { headers: { 'x-reservation-token': booking.accessToken } });
    const guestView = (await guest.json()) as { reference: string; status: string; guestCount: number };
    expect(guest.status, JSON.stringify(guestView)).to.equal(200);
    expect(guestView).to.include({ reference: booking.reference, status: booking.status, guestCount: 3 });
    const staff = await fetch(`${server.baseUrl}/api/reservations/${reservationId}`, { headers: { 'x-api-token': TOKEN } });
    const staffView = (await staff.json()) as { reference: string; guestCount: number; bookedContact: { email: string } };
    expect(staff.status, JSON.stringify(staffView)).to.equal(200);
    expect(staffView.reference).to.equal(booking.reference);
    expect(staffView.bookedContact.email).to.equal(contact(7).email);
    expect(staffView.guestCount).to.equal(3);
    // The job engine's schema came back too, with the hold's expiry job in it.
    const check = new pg.Client({ connectionString: urlOf(restored) });
    await check.connect();
    try {
      const { rows } = await check.query(`select count(*)::int as n from pgboss.job where data::text like $1`, [`%${reservationId}%`]);
      expect(rows[0].n).to.be.greaterThan(0);
    } finally {
      await check.end();
    }
  });
});
