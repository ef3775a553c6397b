import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import fs from 'node:fs/promises';
import http from 'node:http';
import { createRequire } from 'node:module';
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
 * Runs one step of a journey; when it fails, the page's screenshot is saved in ARTIFACTS_DIR (`failed-…`) and its
 * path printed (and added to the error), so a failure in CI shows what the guest saw.
 */
export async function step<T>(page: Page, name: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    const file = path.join(ARTIFACTS_DIR, `failed-${Date.now()}-${name.replace(/[^a-z0-9]+/gi, '-').toLowerCase()}.png`);
    try {
      await fs.mkdir(ARTIFACTS_DIR, { recursive: true });
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
/**
 * Clicks an element once it is visible and enabled. A click that lands while the page re-renders the element (the
 * booking form redraws as its quote arrives) finds a node with no box ("not clickable"): it is tried again on the
 * element as it then is, a few times, never past the timeout.
 */
export async function clickWhenReady(page: Page, selector: string, timeout = 15_000): Promise<void> {
  const until = Date.now() + timeout;
  for (;;) {
    await page.waitForSelector(`${selector}:not([disabled])`, { visible: true, timeout: Math.max(1, until - Date.now()) });
    try {
      await page.click(selector);
      return;
    } catch (error) {
      if (!/not clickable|detached|not an Element/i.test(String(error)) || Date.now() > until) throw error;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}

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

// ---- what every page of the storefront is held to (issue 34 §2, §4): its language, axe, a screenshot -----------

/**
 * Where the browser tests write their screenshots: BROWSER_ARTIFACTS, else test/browser/screenshots/ (ignored by
 * git; .ci/run prints it and keeps it when the browser leg fails).
 */
export const ARTIFACTS_DIR = path.resolve(process.env.BROWSER_ARTIFACTS || fileURLToPath(new URL('./screenshots/', import.meta.url)));

let shots = 0;
/** A full-page screenshot named after the step, the language and the width, in ARTIFACTS_DIR. */
export async function screenshot(page: Page, name: string): Promise<string> {
  await fs.mkdir(ARTIFACTS_DIR, { recursive: true });
  const width = page.viewport()?.width ?? 0;
  const file = path.join(ARTIFACTS_DIR, `${String(++shots).padStart(3, '0')}-${name.replace(/[^a-z0-9]+/gi, '-').toLowerCase()}-${width}.png`);
  await page.screenshot({ path: file as `${string}.png`, fullPage: true });
  return file;
}

const AXE_SOURCE = fs.readFile(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
/** The WCAG 2.2 A and AA rules (target-size among them), as axe-core tags them. */
export const AXE_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22a', 'wcag22aa'];

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: Array<{ target: unknown[]; failureSummary?: string }>;
}

/** axe-core, injected into the page, over the whole document: its serious and critical violations. */
export async function axeViolations(page: Page): Promise<AxeViolation[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.addScriptTag({ content: await AXE_SOURCE });
  const result = await page.evaluate(
    (tags) =>
      (window as unknown as { axe: { run(context: unknown, options: unknown): Promise<{ violations: AxeViolation[] }> } }).axe.run(document, {
        runOnly: { type: 'tag', values: tags },
        rules: { 'target-size': { enabled: true } },
        resultTypes: ['violations'],
      }),
    AXE_TAGS,
  );
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.map((n) => ({ target: n.target, failureSummary: n.failureSummary })) }));
}

/**
 * The text a person meets on the page: visible text nodes, and the alt, aria-label, placeholder and title texts
 * read out for controls; without names that are no one's words to translate (`translate="no"`: references, codes,
 * partners' names), text a partner wrote as it chose (`data-authored`: its city) and passages marked as another
 * language (`lang`: the language switch, a partner's description in the language the API returned it, issue 34 §2).
 */
export async function visibleText(page: Page, locale: string): Promise<string> {
  // A string, not a function: tsx's keepNames would wrap the inner functions in a helper the page does not have.
  return page.evaluate(`(${VISIBLE_TEXT})(${JSON.stringify(locale)})`) as Promise<string>;
}

const VISIBLE_TEXT = `function (lang) {
  function skip(element) {
    for (let e = element; e; e = e.parentElement) {
      if (e.getAttribute('translate') === 'no' || e.hasAttribute('data-authored')) return true;
      const l = e.getAttribute('lang');
      if (l && e !== document.documentElement && !l.startsWith(lang)) return true;
      if (e.tagName === 'SCRIPT' || e.tagName === 'STYLE' || e.tagName === 'NOSCRIPT') return true;
    }
    return false;
  }
  const parts = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const parent = node.parentElement;
    if (!parent || skip(parent) || !node.textContent.trim()) continue;
    const style = getComputedStyle(parent);
    const readOut = parent.closest('.visually-hidden');
    if (!readOut && (style.visibility === 'hidden' || style.display === 'none' || parent.getClientRects().length === 0)) continue;
    parts.push(node.textContent.trim());
  }
  for (const element of document.querySelectorAll('[alt], [aria-label], [placeholder], [title]')) {
    if (skip(element)) continue;
    for (const attribute of ['alt', 'aria-label', 'placeholder', 'title']) {
      const value = element.getAttribute(attribute);
      if (value && value.trim()) parts.push(value.trim());
    }
  }
  // The title names what the page is about: a partner's or a show's name is no UI word.
  let title = document.title;
  for (const element of document.querySelectorAll('[translate=no]')) {
    const name = element.textContent.trim();
    if (name) title = title.split(name).join(' ');
  }
  parts.push(title);
  return parts.join('\\n');
}`;
