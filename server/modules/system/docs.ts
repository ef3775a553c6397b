import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';

/**
 * The API reference page (`GET /docs`): Scalar's standalone browser bundle, from node_modules, over our own
 * `/openapi.yaml`. It must work with no network at all, so everything Scalar would fetch from elsewhere is
 * switched off (checked against the 1.40 bundle):
 *
 * - `withDefaultFonts: false`: otherwise its CSS loads Inter and JetBrains Mono from fonts.scalar.com;
 * - `telemetry: false`: otherwise the API client posts usage events to api.scalar.com/analytics/send;
 * - no `proxyUrl`: "Try it" requests go straight to the server (proxy.scalar.com only when a proxy is set);
 * - `hideClientButton: true`: the "Open API client" button links to client.scalar.com;
 * - `showDeveloperTools: 'never'`: the toolbar's share/"generate SDK" actions post the document to scalar.com.
 *
 * The configuration travels in a data attribute of a non-executed `<script type="application/json">`, so the
 * page needs no inline script and its Content-Security-Policy can allow scripts from 'self' only.
 */
export const SCALAR_CONFIGURATION = {
  withDefaultFonts: false,
  telemetry: false,
  hideClientButton: true,
  showDeveloperTools: 'never',
  persistAuth: false,
  defaultOpenAllTags: false,
  pageTitle: 'Venue backend API reference',
} as const;

export const DOCS_SCRIPT_PATH = '/docs/scalar.js';
export const CONTRACT_URL = '/openapi.yaml';

/**
 * Only this origin. Styles: Scalar injects `<style>` elements (and style attributes) at run time, hence
 * 'unsafe-inline' for styles only; images: icons come as data: URIs. No eval (its zod feature check falls back).
 */
export const DOCS_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

const escapeAttribute = (value: string) => value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

export const DOCS_HTML = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <meta name="referrer" content="no-referrer">
    <title>${SCALAR_CONFIGURATION.pageTitle}</title>
    <link rel="icon" href="data:,">
  </head>
  <body>
    <noscript>The API reference needs JavaScript. The contract itself is at <a href="${CONTRACT_URL}">${CONTRACT_URL}</a>.</noscript>
    <script id="api-reference" type="application/json" data-url="${CONTRACT_URL}" data-configuration="${escapeAttribute(JSON.stringify(SCALAR_CONFIGURATION))}"></script>
    <script src="${DOCS_SCRIPT_PATH}"></script>
  </body>
</html>
`;

export interface DocsScript {
  bytes: Buffer;
  etag: string;
}

let script: DocsScript | undefined;

/** `@scalar/api-reference`'s standalone bundle, read once (about 3 MB) with its ETag (SHA-256 of the bytes). */
export function docsScript(): DocsScript {
  if (!script) {
    const file = createRequire(import.meta.url).resolve('@scalar/api-reference/browser/standalone.js');
    const bytes = fs.readFileSync(file);
    script = { bytes, etag: `"${createHash('sha256').update(bytes).digest('hex')}"` };
  }
  return script;
}
