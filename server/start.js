// @ts-check
/**
 * `npm start`: the server from its build (`.build/main.js`, made by `npm run build`, which `npm ci` runs through
 * `prepare`) while every source file it was built from is unchanged; otherwise from the sources through tsx, as
 * `npm run dev` does. Plain JavaScript: it runs before anything can compile TypeScript.
 *
 * Set VENUE_FROM_SOURCE=1 to start from the sources whatever the build.
 */
const launchedAt = performance.now();
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const buildDir = path.join(root, '.build');

/** Why the build cannot be used (undefined: it can). */
function staleBecause() {
  if (process.env.VENUE_FROM_SOURCE === '1' || process.env.VENUE_FROM_SOURCE === 'true') return 'VENUE_FROM_SOURCE is set';
  /** @type {{ node?: string; files: Array<{ path: string; size: number; mtimeMs: number }> }} */
  let manifest;
  try {
    manifest = JSON.parse(fs.readFileSync(path.join(buildDir, 'manifest.json'), 'utf8'));
  } catch {
    return 'no build (npm run build makes one)';
  }
  if (!fs.existsSync(path.join(buildDir, 'main.js'))) return 'no build (npm run build makes one)';
  for (const file of manifest.files) {
    let stat;
    try {
      stat = fs.statSync(path.join(root, file.path));
    } catch {
      return `${file.path} is gone since the build`;
    }
    if (stat.size !== file.size || stat.mtimeMs !== file.mtimeMs) return `${file.path} changed since the build`;
  }
  return undefined;
}

/**
 * The embedded database (DATABASE_URL unset) starts opening now, while the app's code loads: PGlite compiles its
 * WebAssembly on other threads and starts PostgreSQL in between the loading's own work. server/platform/db/database.ts
 * takes this instance when the configuration names the same data directory (`DATA_DIR`, resolved as the
 * configuration resolves it), and closes it otherwise. Only a data directory that already holds a database: a first
 * start copies the build's template there first (server/platform/db/template.ts).
 */
async function openEmbeddedEarly() {
  if (process.env.DATABASE_URL?.trim()) return;
  const pgdata = path.join(path.resolve(process.env.DATA_DIR?.trim() || './.data'), 'pgdata');
  if (!fs.existsSync(path.join(pgdata, 'PG_VERSION'))) return;
  const { PGlite } = await import('@electric-sql/pglite');
  const db = new PGlite(pgdata);
  // A failure is reported where the app first uses the database (the same promise), not as an unhandled rejection.
  db.waitReady.catch(() => undefined);
  /** @type {any} */ (globalThis).__venueEarlyPglite = { pgdata, db };
}

const stale = staleBecause();
// Read by server/main.ts for its start-up timeline.
/** @type {any} */ (globalThis).__venueStart = { from: stale ? 'sources' : 'build', reason: stale, at: launchedAt, cpu: process.cpuUsage() };
await openEmbeddedEarly();
if (stale) {
  // As `node --import tsx server/main.ts`: tsx registered, then the entry imported.
  await import('tsx');
  await import(pathToFileURL(path.join(root, 'server/main.ts')).href);
} else {
  await import(pathToFileURL(path.join(buildDir, 'main.js')).href);
}
