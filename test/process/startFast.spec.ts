import { createHash } from 'node:crypto';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { Model } from 'objection';
import { BUNDLED_PACKAGES, build } from '../../server/cli/build.ts';
import { CONTRACT_PATH, loadContract, writeContractCache } from '../../server/platform/http/contract.ts';
import { openDatabase } from '../../server/platform/db/database.ts';
import { migrateLatest } from '../../server/platform/db/migrations.ts';
import { buildTemplate, holdsDatabase, startFromTemplate } from '../../server/platform/db/template.ts';
import { queueMatches } from '../../server/platform/jobs/engine.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

interface Started {
  code: number | null;
  lines: Array<Record<string, any>>;
  output: string;
}

/** `npm start`'s command (node server/start.js) on `dataDir` at debug level, stopped (SIGTERM) once it answers readiness. */
async function startOnce(dataDir: string, env: Record<string, string> = {}, nodeArgs: string[] = []): Promise<Started> {
  const childEnv: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'debug', SEED_ON_START: 'false', ...env };
  for (const name of ['DATABASE_URL', 'NODE_ENV', 'SUPERUSER_API_TOKENS', 'SUPERUSER_API_TOKEN']) delete childEnv[name];
  if (!env.VENUE_FROM_SOURCE) delete childEnv.VENUE_FROM_SOURCE;
  const child = spawn(process.execPath, [...nodeArgs, 'server/start.js'], { cwd: ROOT, env: childEnv, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
  const deadline = Date.now() + 150_000;
  for (;;) {
    const base = /"baseUrl":"(http:\/\/[^"]+)"/.exec(output)?.[1];
    if (base) {
      const ready = await fetch(`${base}/api/system/health/ready`).catch(() => undefined);
      if (ready?.status === 200) break;
    }
    if (child.exitCode !== null || Date.now() > deadline) break;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  child.kill('SIGTERM');
  const code = await exited;
  const lines = output
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Record<string, any>);
  return { code, lines, output };
}

const phases = (started: Started) => started.lines.filter((line) => line.msg === 'start-up phase').map((line) => line.phase as string);

/**
 * Issue 25 §1: `npm start` starts from a build while it is current (tsx only for migrations to apply), from the
 * sources otherwise; its phases are logged at debug level; validators, migrations and queues cost nothing at start
 * when nothing changed.
 */
describe('start fast: the build, the timeline, nothing redone at start', function () {
  this.timeout(400_000);
  const dirs: string[] = [];
  after(() => {
    for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('starts from the build (a fresh data directory from its template, an upgrade migrated through tsx), from the sources on request, and logs its timeline', async () => {
    const built = await build();
    expect(built, 'esbuild is installed with tsx').not.to.equal(undefined);
    expect(fs.existsSync(path.join(ROOT, '.build/main.js'))).to.equal(true);
    expect(fs.existsSync(path.join(ROOT, '.build/pgdata-template/pgdata/PG_VERSION'))).to.equal(true);
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'venue-startfast-'));
    dirs.push(dataDir);
    const imports = path.join(dataDir, 'imports.txt');

    // The first start copies the build's migrated template: no initdb, nothing left to migrate. The packages only
    // some requests need (the AI SDK and zod, the AWS SDK, nodemailer, ics, qrcode) are not loaded to answer readiness.
    const first = await startOnce(dataDir, { IMPORTS_RECORD: imports }, ['--import', './test/fixtures/recordImports.mjs']);
    expect(first.code, first.output).to.equal(0);
    expect(first.lines.find((line) => line.msg === "new embedded database from the build's template"), first.output).to.include({ pgdata: path.join(dataDir, 'pgdata') });
    expect(phases(first)).to.deep.equal(['node', 'import (build)', 'config', 'data directory from the template', 'database open', 'migrations checked', 'app (contract, routes)', 'job engine', 'listen']);
    expect(first.output).not.to.contain('migrations applied');
    const timeline = first.lines.filter((line) => line.msg === 'start-up phase');
    for (let i = 1; i < timeline.length; i++) expect(timeline[i].atMs).to.be.at.least(timeline[i - 1].atMs);
    for (const entry of timeline) expect(entry).to.have.keys('level', 'time', 'msg', 'phase', 'atMs', 'ms', 'cpuMs');
    const summary = first.lines.find((line) => line.msg === 'start-up timeline: listening');
    expect(summary, first.output).to.include({ from: 'build', totalMs: timeline.at(-1)!.atMs });
    expect(Object.keys(summary!.phases)).to.deep.equal(phases(first));
    const loaded = new Set(fs.readFileSync(imports, 'utf8').split('\n').filter(Boolean));
    expect([...loaded], 'the recorder saw the packages loaded as installed').to.include.members(['pino', 'eta']);
    // The start's CommonJS packages are in the bundle (S1): none is loaded as installed, and the build watches each
    // bundled package's package.json like a source file (another version installed: the start runs from the sources).
    const manifest = JSON.parse(fs.readFileSync(path.join(ROOT, '.build/manifest.json'), 'utf8')) as { bundled: string[]; files: Array<{ path: string }> };
    for (const name of BUNDLED_PACKAGES) {
      expect(loaded.has(name), `${name} loaded as installed, not from the bundle`).to.equal(false);
      expect(manifest.bundled).to.include(name);
      expect(manifest.files.map((file) => file.path)).to.include(`node_modules/${name}/package.json`);
    }
    expect(manifest.bundled, 'what must load as installed is not bundled').not.to.include.members(['@electric-sql/pglite', 'pino', 'ajv']);
    for (const lazy of ['ai', 'zod', '@ai-sdk/mistral', '@ai-sdk/openai-compatible', '@aws-sdk/client-s3', 'nodemailer', 'ics', 'qrcode']) {
      expect(loaded.has(lazy), `${lazy} loaded at start`).to.equal(false);
    }

    // An upgrade: the last migration not yet applied (undone here); the start from the build applies it through tsx.
    const previous = Model.knex();
    const db = openDatabase({ dataDir });
    let last: string;
    try {
      const { migrationSource, appliedMigrations } = await import('../../server/platform/db/migrations.ts');
      last = (await appliedMigrations(db.knex)).at(-1)!;
      await (await migrationSource.getMigration(`${last}.ts`)).down!(db.knex);
      await db.knex('knex_migrations').where({ name: last }).delete();
    } finally {
      await db.close();
      Model.knex(previous);
    }
    const upgraded = await startOnce(dataDir);
    expect(upgraded.code, upgraded.output).to.equal(0);
    expect(upgraded.lines.find((line) => line.msg === 'migrations applied')?.applied, upgraded.output).to.deep.equal([last]);
    expect(phases(upgraded)).to.deep.equal(['node', 'import (build)', 'config', 'database open', 'migrations applied', 'app (contract, routes)', 'job engine', 'listen']);

    // A warm start: nothing to migrate (checked, not applied); from the sources when asked, saying why.
    const warm = await startOnce(dataDir, { VENUE_FROM_SOURCE: '1' });
    expect(warm.code, warm.output).to.equal(0);
    expect(phases(warm)).to.deep.equal(['node', 'import (sources, tsx)', 'config', 'database open', 'migrations checked', 'app (contract, routes)', 'job engine', 'listen']);
    expect(warm.lines.find((line) => line.msg === 'start-up from the sources (tsx)')?.reason).to.equal('VENUE_FROM_SOURCE is set');
    // The data directory held a database: server/start.js began opening it while the code loaded, and the app used it.
    expect(warm.lines.some((line) => line.msg === 'the embedded database opened while the code loaded (server/start.js)'), warm.output).to.equal(true);
    expect(first.output, 'a first start has no database to open early').not.to.contain('opened while the code loaded');
    expect(warm.output).not.to.contain('migrations applied');

    // Info level (the default): no timeline at all.
    const quiet = await startOnce(dataDir, { LOG_LEVEL: 'info' });
    expect(quiet.code, quiet.output).to.equal(0);
    expect(quiet.output).not.to.contain('start-up');
  });

  it('reads the contract from the build’s parsed copy only while its digest matches openapi.yaml', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'venue-contract-cache-'));
    dirs.push(dir);
    const cache = path.join(dir, 'openapi.json');
    writeContractCache(cache);
    const fromYaml = loadContract(CONTRACT_PATH, undefined);
    const fromCache = loadContract(CONTRACT_PATH, cache);
    expect(fromCache.document).to.deep.equal(fromYaml.document);
    expect(fromCache.operations.map((op) => op.operationId)).to.deep.equal(fromYaml.operations.map((op) => op.operationId));
    // Proof that the cache is what was read: a marked copy under the right digest comes back marked …
    const text = fs.readFileSync(CONTRACT_PATH, 'utf8');
    const marked = { ...fromYaml.document, info: { ...fromYaml.document.info, title: 'from the cache' } };
    fs.writeFileSync(cache, JSON.stringify({ sha256: createHash('sha256').update(text).digest('hex'), document: marked }));
    expect(loadContract(CONTRACT_PATH, cache).document.info.title).to.equal('from the cache');
    // … and under another digest (openapi.yaml changed since the build) it is ignored.
    fs.writeFileSync(cache, JSON.stringify({ sha256: 'f'.repeat(64), document: marked }));
    expect(loadContract(CONTRACT_PATH, cache).document.info.title).to.equal(fromYaml.document.info.title);
  });

  it('checks migrations with one read when they are current, and applies them through knex when one is missing', async () => {
    const previous = Model.knex();
    const db = openDatabase({ dataDir: 'memory' });
    try {
      const first = await migrateLatest(db.knex);
      expect(first.applied).to.deep.equal(first.current);
      const statements: string[] = [];
      db.knex.on('query', (query: { sql: string }) => statements.push(query.sql));
      const again = await migrateLatest(db.knex);
      expect(again).to.deep.equal({ applied: [], current: first.current });
      expect(statements.filter((sql) => !/knex_migrations/.test(sql))).to.deep.equal([]);
      expect(statements.length).to.be.at.most(2);
      // The last migration's record gone: knex's own run applies it again (down first, so that it can).
      const last = first.current.at(-1)!;
      const { migrationSource } = await import('../../server/platform/db/migrations.ts');
      const migration = await migrationSource.getMigration(`${last}.ts`);
      await migration.down!(db.knex);
      await db.knex('knex_migrations').where({ name: last }).delete();
      const redone = await migrateLatest(db.knex);
      expect(redone.applied).to.deep.equal([last]);
    } finally {
      await db.close();
      Model.knex(previous);
    }
  });

  it('copies the template into an empty data directory only, and only while it matches the migrations', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'venue-template-'));
    dirs.push(dir);
    const templateDir = path.join(dir, 'template');
    const made = await buildTemplate(templateDir);
    expect(made.migrations).to.be.greaterThan(0);
    const empty = path.join(dir, 'a', 'pgdata');
    expect(holdsDatabase(empty)).to.equal(false);
    expect(await startFromTemplate(empty, templateDir)).to.equal(undefined);
    expect(holdsDatabase(empty)).to.equal(true);
    expect(fs.readdirSync(path.dirname(empty))).to.deep.equal(['pgdata']);
    // The copy is a database with every migration applied.
    const previous = Model.knex();
    const db = openDatabase({ dataDir: path.dirname(empty) });
    try {
      const migrated = await migrateLatest(db.knex);
      expect(migrated.applied).to.deep.equal([]);
      expect(migrated.current).to.have.length(made.migrations);
      expect(await db.knex('organizations').count({ n: '*' }).first()).to.deep.equal({ n: 1 });
    } finally {
      await db.close();
      Model.knex(previous);
    }
    // Never over a database, nor into a directory holding anything.
    expect(await startFromTemplate(empty, templateDir)).to.equal('the data directory holds a database');
    const busy = path.join(dir, 'b', 'pgdata');
    fs.mkdirSync(busy, { recursive: true });
    fs.writeFileSync(path.join(busy, 'note'), 'x');
    expect(await startFromTemplate(busy, templateDir)).to.equal('the data directory is not empty');
    // A template made from other migrations (or another PGlite) is not used: initdb and the migrations run instead.
    const record = path.join(templateDir, 'template.json');
    fs.writeFileSync(record, JSON.stringify({ ...JSON.parse(fs.readFileSync(record, 'utf8')), digest: '0'.repeat(64) }));
    const other = path.join(dir, 'c', 'pgdata');
    expect(await startFromTemplate(other, templateDir)).to.equal('the template was made from other migrations or another PGlite');
    expect(fs.existsSync(other)).to.equal(false);
    expect(await startFromTemplate(other, path.join(dir, 'none'))).to.equal('no template (npm run build makes one)');
  });

  it('builds without the template when it cannot be made (npm ci does not fail; a first start runs initdb)', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'venue-build-'));
    dirs.push(dir);
    const outDir = path.join(dir, 'build');
    const built = await build({ outDir, prepareTemplate: async () => { throw new Error('no room left'); } });
    expect(built?.templateError).to.equal('no room left');
    expect(built?.templateMs).to.equal(undefined);
    expect(fs.existsSync(path.join(outDir, 'main.js'))).to.equal(true);
    expect(fs.existsSync(path.join(outDir, 'pgdata-template'))).to.equal(false);
    expect(await startFromTemplate(path.join(dir, 'data', 'pgdata'), path.join(outDir, 'pgdata-template'))).to.equal('no template (npm run build makes one)');
  });

  it('declares a job queue again only when its settings changed', () => {
    const stored = { name: 'q', policy: 'standard', retryLimit: 3, retryDelay: 5, retryBackoff: true, expireInSeconds: 60, retentionMinutes: 1440, deadLetter: null };
    expect(queueMatches(stored, { name: 'q', policy: 'standard', retryLimit: 3, retryDelay: 5, retryBackoff: true, expireInSeconds: 60 })).to.equal(true);
    expect(queueMatches(stored, { name: 'q', policy: 'standard', retryLimit: 4, retryDelay: 5, retryBackoff: true, expireInSeconds: 60 })).to.equal(false);
    expect(queueMatches(stored, { name: 'q', policy: 'singleton', retryLimit: 3 })).to.equal(false);
    expect(queueMatches(undefined, { name: 'q' })).to.equal(false);
  });
});
