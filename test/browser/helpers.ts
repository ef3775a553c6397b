import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import fs from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';

/**
 * The browser tests' tools: the OS's Chromium (Debian's `chromium`, never a downloaded build) driven by
 * puppeteer-core, the storefront built with Vite against a test server, served from its own origin by a tiny
 * static server, and a screenshot of the page whenever a step fails.
 */

export const STOREFRONT_DIR = fileURLToPath(new URL('../../examples/storefront/', import.meta.url));
export const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';

export async function launchBrowser(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) throw new Error(`No Chromium at ${CHROMIUM}: install the OS package (apt-get install -y chromium) or set CHROMIUM_PATH.`);
  return puppeteer.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox', '--disable-dev-shm-usage', '--disable-gpu'] });
}

/**
 * `vite build` of the storefront into a fresh temporary folder, its API at `apiUrl` (VITE_API_URL is read at
 * build time). Needs the storefront's own install (`npm ci` in examples/storefront, after `npm run sdk:pack`).
 */
export async function buildStorefront(apiUrl: string, env: Record<string, string> = {}): Promise<string> {
  const vite = path.join(STOREFRONT_DIR, 'node_modules', '.bin', 'vite');
  if (!existsSync(vite)) throw new Error('The storefront is not installed: npm run sdk:pack && (cd examples/storefront && npm ci)');
  const outDir = await fs.mkdtemp(path.join(os.tmpdir(), 'venue-storefront-'));
  await promisify(execFile)(vite, ['build', '--outDir', outDir, '--emptyOutDir', '--logLevel', 'warn'], {
    cwd: STOREFRONT_DIR,
    env: { ...process.env, VITE_API_URL: apiUrl, ...env },
  });
  return outDir;
}

const TYPES: Record<string, string> = { '.html': 'text/html; charset=utf-8', '.js': 'text/javascript', '.css': 'text/css', '.svg': 'image/svg+xml', '.png': 'image/png', '.json': 'application/json' };

export interface StaticSite {
  origin: string;
  /** The folder served (set once the build is done: the origin must be known before the API starts). */
  root: string | undefined;
  requests: string[];
  close(): Promise<void>;
}

/** A static server on its own port: files from `root`, every other path the app's index.html (a single-page app). */
export async function serveStatic(): Promise<StaticSite> {
  const site: StaticSite = { origin: '', root: undefined, requests: [], close: async () => {} };
  const server = http.createServer(async (req, res) => {
    site.requests.push(req.url ?? '');
    if (!site.root) return void res.writeHead(503).end('not built yet');
    const pathname = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
    const file = path.join(site.root, path.normalize(pathname).replace(/^(\.\.[/\\])+/, ''));
    const inside = file.startsWith(site.root + path.sep);
    const target = inside && existsSync(file) && (await fs.stat(file)).isFile() ? file : path.join(site.root, 'index.html');
    res.writeHead(200, { 'content-type': TYPES[path.extname(target)] ?? 'application/octet-stream', 'cache-control': 'no-store' });
    res.end(await fs.readFile(target));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  site.origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  site.close = () => new Promise<void>((resolve) => server.close(() => resolve()));
  return site;
}

/** Console errors and failed requests a page saw (asserted empty where a page must be clean). */
export function watch(page: Page) {
  const seen = { consoleErrors: [] as string[], pageErrors: [] as string[], failed: [] as string[] };
  page.on('console', (message) => {
    if (message.type() === 'error') seen.consoleErrors.push(message.text());
  });
  page.on('pageerror', (error) => seen.pageErrors.push(String(error)));
  page.on('requestfailed', (request) => seen.failed.push(`${request.method()} ${request.url()} ${request.failure()?.errorText ?? ''}`));
  return seen;
}

/**
 * Runs one step of a journey; when it fails, the page's screenshot is saved under the OS's temp folder and its
 * path printed (and added to the error), so a failure in CI shows what the guest saw.
 */
export async function step<T>(page: Page, name: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    const file = path.join(os.tmpdir(), `venue-browser-${Date.now()}-${name.replace(/[^a-z0-9]+/gi, '-').toLowerCase()}.png`);
    try {
      await page.screenshot({ path: file as `${string}.png`, fullPage: true });
      console.error(`    [browser] step "${name}" failed at ${page.url()}; screenshot: ${file}`);
      if (error instanceof Error) error.message += `\n(screenshot: ${file}, page: ${page.url()})`;
    } catch (shotError) {
      console.error(`    [browser] step "${name}" failed; no screenshot: ${String(shotError)}`);
    }
    throw error;
  }
}

/** The visible text of the first element matching `selector`, once it holds text matching `pattern`. */
export async function textOf(page: Page, selector: string, pattern: RegExp = /\S/, timeout = 15_000): Promise<string> {
  await page.waitForFunction(
    (sel, source, flags) => {
      const element = document.querySelector(sel);
      return !!element && new RegExp(source, flags).test((element as HTMLElement).innerText);
    },
    { timeout },
    selector,
    pattern.source,
    pattern.flags,
  );
  return page.$eval(selector, (element) => (element as HTMLElement).innerText);
}
