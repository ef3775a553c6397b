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
    absWorkingDir: ROOT,
    entryPoints: { main: ENTRY },
    outdir: staging,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    packages: 'external',
    // A bundle of ES modules still needs `require` for the few CommonJS-style calls esbuild emits.
    banner: { js: "import { createRequire as __venueCreateRequire } from 'node:module'; const require = __venueCreateRequire(import.meta.url);" },
    metafile: true,
    logLevel: 'warning',
    plugins: [rewriteImportMeta],
    // Class and function names are kept: errors, logs and `instanceof` checks read them.
    keepNames: true,
  });

  const inputs = Object.keys(result.metafile.inputs).filter((input) => !input.includes('node_modules/'));
  const manifest = {
    entry: ENTRY,
    node: process.versions.node,
    builtAt: new Date().toISOString(),
    files: inputs.map((input) => {
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
