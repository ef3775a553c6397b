/**
 * `npm run build` (also run by `npm ci` / `npm install` through `prepare`): compiles the server once into `.build/`
 * (gitignored) so that `npm start` does not pay for compiling TypeScript on every start (issue 25: importing the
 * app through tsx took 1.4–2 s of a 6 s start).
 *
 * - `.build/main.js`: server/main.ts and everything it imports from this repository, bundled by esbuild into one
 *   ES module (code split at dynamic imports, so what is loaded lazily stays lazy). Packages from node_modules are
 *   not bundled: Node loads them as installed.
 * - `import.meta.url` in each bundled file is rewritten to that file's own URL (relative to the bundle, so the
 *   checkout can move): the paths the code finds beside itself (openapi.yaml, migrations/, e-mail templates) stay right.
 * - `.build/openapi.json`: the bundled contract, parsed (loadContract reads it instead of parsing 700 kB of YAML
 *   when its digest matches openapi.yaml).
 * - `.build/pgdata-template/`: a PGlite data directory with every migration applied, copied by the embedded
 *   database's first start instead of running initdb and the migrations (server/platform/db/template.ts).
 * - `.build/manifest.json`: every source file the bundle was made from, with its size and modification time.
 *   server/start.js starts from the bundle only while all of them are unchanged; otherwise from the sources through
 *   tsx, as in development.
 *
 * esbuild is tsx's own compiler (installed with it). Without it the build is skipped with a note and `npm start`
 * runs from the sources: slower, never wrong.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { writeContractCache } from '../platform/http/contract.ts';
import { buildTemplate } from '../platform/db/template.ts';
import type { Database } from '../platform/db/database.ts';
import { loadConfig } from '../platform/config.ts';
import { createJobEngine } from '../platform/jobs/index.ts';
import { createLogger } from '../platform/logger.ts';
import { QUEUES } from '../modules/index.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const BUILD_DIR = path.join(ROOT, '.build');
const ENTRY = 'server/main.ts';

type EsbuildModule = typeof import('esbuild');

/**
 * The packages the start imports that are bundled into `.build/main.js` with everything they require (issue 37,
 * S1): CommonJS packages made of many small files (knex alone loads hundreds of lodash modules), whose resolution,
 * reading and wrapping one file at a time cost a warm start about a hundred milliseconds more than the same code
 * in one file. Everything else stays external and loads as installed: ES-module packages, packages that find files
 * beside themselves at run time (PGlite's WebAssembly, pdfkit's fonts, pino's worker-thread transports), the AI
 * SDK and other lazily imported ones.
 */
export const BUNDLED_PACKAGES = new Set(['knex', 'objection', 'knex-pglite', 'pg', 'pg-boss', 'koa', '@koa/router', '@koa/cors', 'koa-compose', 'busboy', 'luxon', 'rate-limiter-flexible']);

/**
 * Never bundled, even when a bundled package requires them: they read files beside themselves or are native, or the
 * app loads them as installed (Ajv, server/platform/http/validation.ts: objection's must be the same copy).
 */
const NEVER_BUNDLED = new Set(['@electric-sql/pglite', 'pino', 'pg-native', 'esbuild', 'ajv', 'ajv-formats']);

const packageName = (specifier: string) => (specifier.startsWith('@') ? specifier.split('/').slice(0, 2).join('/') : specifier.split('/')[0]);

/** The package.json of the installed package a metafile input belongs to (undefined for the repository's own). */
function packageJsonOf(input: string): string | undefined {
  const at = input.lastIndexOf('node_modules/');
  if (at < 0) return undefined;
  const name = packageName(input.slice(at + 'node_modules/'.length));
  return `${input.slice(0, at)}node_modules/${name}/package.json`;
}

const bundlePackages: import('esbuild').Plugin = {
  name: 'bundle-packages',
  setup(setup) {
    setup.onResolve({ filter: /^[^./]/ }, (args) => {
      if (args.path.startsWith('node:')) return { external: true };
      const name = packageName(args.path);
      const fromPackage = args.importer.includes(`${path.sep}node_modules${path.sep}`);
      // From the repository's sources: only the listed packages. From inside a bundled package: all it requires,
      // except what must load as installed and optional drivers that are not installed (knex's other dialects').
      const bundled = fromPackage ? !NEVER_BUNDLED.has(name) && fs.existsSync(path.join(ROOT, 'node_modules', name)) : BUNDLED_PACKAGES.has(name);
      return bundled ? undefined : { external: true };
    });
  },
};

async function loadEsbuild(): Promise<EsbuildModule | undefined> {
  try {
    return (await import('esbuild')) as EsbuildModule;
  } catch {
    return undefined;
  }
}

export interface BuildResult {
  files: number;
  ms: number;
  /** Of `ms`, making the embedded database's template; undefined when it could not be made (`templateError`). */
  templateMs?: number;
  templateError?: string;
}

export async function build(options: { outDir?: string; prepareTemplate?: (db: Database) => Promise<void> } = {}): Promise<BuildResult | undefined> {
  const started = performance.now();
  const esbuild = await loadEsbuild();
  if (!esbuild) return undefined;
  const outDir = options.outDir ?? BUILD_DIR;
  const staging = `${outDir}.tmp-${process.pid}`;
  fs.rmSync(staging, { recursive: true, force: true });
  fs.mkdirSync(staging, { recursive: true });

  const rewriteImportMeta: import('esbuild').Plugin = {
    name: 'import-meta-url',
    setup(setup) {
      setup.onLoad({ filter: /\.tsx?$/ }, async (args) => {
        if (args.path.includes(`${path.sep}node_modules${path.sep}`)) return undefined;
        let contents = await fs.promises.readFile(args.path, 'utf8');
        if (contents.includes('import.meta.url')) {
          // The file's own URL, found from the bundle's at run time: `.build/main.js` → `../server/…/file.ts`.
          const relative = path.relative(outDir, args.path).split(path.sep).join('/');
          contents = contents.replaceAll('import.meta.url', `new URL(${JSON.stringify(relative)}, import.meta.url).href`);
        }
        return { contents, loader: args.path.endsWith('x') ? 'tsx' : 'ts' };
      });
    },
  };

  const result = await esbuild.build({
    // Packages: see `bundlePackages` (the start's CommonJS dependencies bundled, the rest loaded as installed).
    absWorkingDir: ROOT,
    entryPoints: { main: ENTRY },
    outdir: staging,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    // A bundle of ES modules still needs `require` for the few CommonJS-style calls esbuild emits.
    banner: { js: "import { createRequire as __venueCreateRequire } from 'node:module'; const require = __venueCreateRequire(import.meta.url);" },
    metafile: true,
    logLevel: 'warning',
    plugins: [rewriteImportMeta, bundlePackages],
    // Class and function names are kept: errors, logs and `instanceof` checks read them.
    keepNames: true,
  });

  const inputs = Object.keys(result.metafile.inputs).filter((input) => !input.includes('node_modules/'));
  // A bundled package's version is part of the build: its package.json is watched like a source file (npm ci, which
  // may install another version, rebuilds through `prepare`; until then the start runs from the sources).
  const packageFiles = [...new Set(Object.keys(result.metafile.inputs).flatMap((input) => packageJsonOf(input) ?? []))].sort();
  const manifest = {
    entry: ENTRY,
    node: process.versions.node,
    builtAt: new Date().toISOString(),
    bundled: [...new Set(packageFiles.map((file) => path.dirname(file).replace(/^.*node_modules\//, '')))].sort(),
    files: [...inputs, ...packageFiles].map((input) => {
      const stat = fs.statSync(path.join(ROOT, input));
      return { path: input, size: stat.size, mtimeMs: stat.mtimeMs };
    }),
  };
  fs.writeFileSync(path.join(staging, 'manifest.json'), `${JSON.stringify(manifest)}\n`);
  writeContractCache(path.join(staging, 'openapi.json'));
  // The embedded database's first start copies this instead of running initdb and every migration.
  // Best effort: without a template a first start runs initdb and the migrations (slower, never wrong), so a
  // template that cannot be made here must not fail `npm ci`.
  const templateDir = path.join(staging, 'pgdata-template');
  const template = await buildTemplate(templateDir, { prepare: options.prepareTemplate ?? declareJobs }).catch((err: unknown) => {
    fs.rmSync(templateDir, { recursive: true, force: true });
    return { error: err instanceof Error ? err.message : String(err) };
  });
  // Swapped in whole: a start never sees half a build.
  const old = `${outDir}.old-${process.pid}`;
  if (fs.existsSync(outDir)) fs.renameSync(outDir, old);
  fs.renameSync(staging, outDir);
  fs.rmSync(old, { recursive: true, force: true });
  return { files: inputs.length, ms: Math.round(performance.now() - started), ...('error' in template ? { templateError: template.error } : { templateMs: template.ms }) };
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  build().then(
    (built) => {
      if (!built) console.log('esbuild is not installed: skipped the build; npm start runs from the sources (slower to start).');
      else {
        const template = built.templateError
          ? `; the embedded database's template could not be made (${built.templateError}): a first start runs initdb and the migrations`
          : `, the embedded database's template among them in ${built.templateMs} ms`;
        console.log(`Built ${path.relative(process.cwd(), BUILD_DIR) || '.build'}/main.js from ${built.files} files in ${built.ms} ms${template} (npm start uses it while the sources are unchanged).`);
      }
    },
    (err) => {
      console.error(err);
      process.exit(1);
    },
  );
}

/** The job engine's schema and queues, as a start declares them (queues whose settings differ are updated then). */
async function declareJobs(db: Database): Promise<void> {
  const config = loadConfig({ NODE_ENV: 'development' });
  const jobs = createJobEngine({ config, db, logger: createLogger('warn'), queues: QUEUES });
  await jobs.start({ workers: false });
  await jobs.stop();
}

export const buildEntryUrl = () => pathToFileURL(path.join(BUILD_DIR, 'main.js')).href;
