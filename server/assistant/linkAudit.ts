import type { RouteFacts } from './facts.ts';
import { onSite } from './linkGuard.ts';

/**
 * The link audit (spec §4.1): after generation, every internal link of the answer (a URL on the public site's
 * origin, or a relative path) must be one of the route values the tools returned (`catalog/routes`, each show's
 * `showUrl`, each event's `bookingUrl`). The others are reported — logged with `[link-audit]`, counted, sent to
 * the web client as a final data part so it can hide them — and, for chat platforms, replaced by the closest
 * valid route (`repairLinks`).
 */
export interface LinkAuditResult {
  /** Internal links found in the text. */
  checked: number;
  /** Invalid link → the closest valid route (when there is route data). */
  replacements: Record<string, string>;
  /** Internal links that are not public routes. */
  invalid: string[];
  /** The valid internal links, each once, in order of appearance. */
  links: string[];
}

const MARKDOWN_LINK = /\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g;
const BARE_URL = /https?:\/\/[^\s<>()\[\]"'`]+/gi;

/** Every link target of a text: Markdown link targets and bare URLs (trailing punctuation trimmed). */
export function linksIn(text: string): string[] {
  const found: string[] = [];
  for (const match of text.matchAll(MARKDOWN_LINK)) found.push(match[1]);
  const withoutMarkdown = text.replace(MARKDOWN_LINK, ' ');
  for (const match of withoutMarkdown.matchAll(BARE_URL)) found.push(match[0].replace(/[.,;:!?]+$/, ''));
  return found;
}

const normalize = (url: string) => url.replace(/#.*$/, '').replace(/\/+$/, '').toLowerCase();

function originOf(url: string): string | undefined {
  try {
    return new URL(url).origin.toLowerCase();
  } catch {
    return undefined;
  }
}

/** The origins of the public site (those of the route data). */
export function siteOrigins(routes: RouteFacts): Set<string> {
  return new Set(routes.all.map(originOf).filter((origin): origin is string => Boolean(origin)));
}

export function auditLinks(text: string, routes: RouteFacts): LinkAuditResult {
  const origins = siteOrigins(routes);
  const valid = new Set(routes.all.map(normalize));
  const invalid: string[] = [];
  const links: string[] = [];
  let checked = 0;
  for (const link of linksIn(text)) {
    // Read as the link guard reads it (`/\evil.example` is no path of ours): off the site, not ours to audit.
    if (!onSite(link, origins)) continue;
    const relative = !/^[a-z][a-z0-9+.-]*:/i.test(link);
    checked += 1;
    if (!relative && valid.has(normalize(link))) {
      if (!links.includes(link)) links.push(link);
    } else if (!invalid.includes(link)) {
      invalid.push(link);
    }
  }
  const replacements: Record<string, string> = {};
  for (const link of invalid) {
    const closest = closestRoute(link, routes);
    if (closest) replacements[link] = closest;
  }
  return { checked, invalid, links, replacements };
}

/** The route sharing the longest path prefix with `link` (ties: the shorter route), else the first route. */
export function closestRoute(link: string, routes: RouteFacts): string | undefined {
  if (routes.all.length === 0) return undefined;
  let path = link;
  try {
    path = new URL(link, 'http://relative.invalid').pathname;
  } catch {
    // keep the text
  }
  const segments = path.split('/').filter(Boolean);
  let best: { url: string; score: number } | undefined;
  for (const url of routes.all) {
    const routeSegments = new URL(url).pathname.split('/').filter(Boolean);
    let score = 0;
    while (score < segments.length && score < routeSegments.length && segments[score] === routeSegments[score]) score += 1;
    const rank = score * 1000 - routeSegments.length;
    if (!best || rank > best.score) best = { url, score: rank };
  }
  return best?.url;
}

/** The text with each invalid internal link replaced by the closest valid route (chat platforms show no hint). */
export function repairLinks(text: string, audit: { replacements?: Record<string, string> }): string {
  let repaired = text;
  for (const [link, replacement] of Object.entries(audit.replacements ?? {})) repaired = repaired.split(link).join(replacement);
  return repaired;
}
