import { createRequire as __venueCreateRequire } from 'node:module'; const require = __venueCreateRequire(import.meta.url);
import {
  __name
} from "./chunk-D2NJZ3J4.js";

// server/assistant/linkAudit.ts
var MARKDOWN_LINK = /\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g;
var BARE_URL = /https?:\/\/[^\s<>()\[\]"'`]+/gi;
function linksIn(text) {
  const found = [];
  for (const match of text.matchAll(MARKDOWN_LINK)) found.push(match[1]);
  const withoutMarkdown = text.replace(MARKDOWN_LINK, " ");
  for (const match of withoutMarkdown.matchAll(BARE_URL)) found.push(match[0].replace(/[.,;:!?]+$/, ""));
  return found;
}
__name(linksIn, "linksIn");
var normalize = /* @__PURE__ */ __name((url) => url.replace(/#.*$/, "").replace(/\/+$/, "").toLowerCase(), "normalize");
function originOf(url) {
  try {
    return new URL(url).origin.toLowerCase();
  } catch {
    return void 0;
  }
}
__name(originOf, "originOf");
function siteOrigins(routes) {
  return new Set(routes.all.map(originOf).filter((origin) => Boolean(origin)));
}
__name(siteOrigins, "siteOrigins");
function auditLinks(text, routes) {
  const origins = siteOrigins(routes);
  const valid = new Set(routes.all.map(normalize));
  const invalid = [];
  const links = [];
  let checked = 0;
  for (const link of linksIn(text)) {
    const relative = link.startsWith("/") && !link.startsWith("//");
    const origin = originOf(link);
    if (!relative && !(origin && origins.has(origin))) continue;
    checked += 1;
    if (!relative && valid.has(normalize(link))) {
      if (!links.includes(link)) links.push(link);
    } else if (!invalid.includes(link)) {
      invalid.push(link);
    }
  }
  const replacements = {};
  for (const link of invalid) {
    const closest = closestRoute(link, routes);
    if (closest) replacements[link] = closest;
  }
  return { checked, invalid, links, replacements };
}
__name(auditLinks, "auditLinks");
function closestRoute(link, routes) {
  if (routes.all.length === 0) return void 0;
  let path = link;
  try {
    path = new URL(link, "http://relative.invalid").pathname;
  } catch {
  }
  const segments = path.split("/").filter(Boolean);
  let best;
  for (const url of routes.all) {
    const routeSegments = new URL(url).pathname.split("/").filter(Boolean);
    let score = 0;
    while (score < segments.length && score < routeSegments.length && segments[score] === routeSegments[score]) score += 1;
    const rank = score * 1e3 - routeSegments.length;
    if (!best || rank > best.score) best = { url, score: rank };
  }
  return best?.url;
}
__name(closestRoute, "closestRoute");
function repairLinks(text, audit) {
  let repaired = text;
  for (const [link, replacement] of Object.entries(audit.replacements ?? {})) repaired = repaired.split(link).join(replacement);
  return repaired;
}
__name(repairLinks, "repairLinks");

// server/assistant/venueData.ts
var DEFAULT_CACHE_ENTRIES = 256;
var VenueDataError = class extends Error {
  constructor(message, status) {
    super(message);
    this.status = status;
    this.name = "VenueDataError";
  }
  status;
  static {
    __name(this, "VenueDataError");
  }
};
var VENUE_DATA_PATHS = {
  shows: "/api/ai/customer-support/catalog/shows",
  events: "/api/ai/customer-support/catalog/events",
  availability: "/api/ai/customer-support/catalog/availability",
  bookingOptions: "/api/ai/customer-support/catalog/booking-options",
  routes: "/api/ai/customer-support/catalog/routes",
  knowledge: "/api/ai/customer-support/knowledge"
};
function createVenueData(options) {
  const doFetch = options.fetch ?? fetch;
  const capacity = options.cacheEntries ?? DEFAULT_CACHE_ENTRIES;
  const kept = /* @__PURE__ */ new Map();
  async function get(path, query) {
    const url = new URL(path, `${options.baseUrl()}/`);
    for (const [name, value2] of Object.entries(query)) if (value2 !== void 0 && value2 !== "") url.searchParams.set(name, String(value2));
    const key = url.toString();
    const known = kept.get(key);
    const headers = { accept: "application/json", "user-agent": "venue-assistant" };
    if (known) headers["if-none-match"] = known.etag;
    let response;
    try {
      response = await doFetch(url, { headers, signal: AbortSignal.timeout(options.timeoutMs) });
    } catch (err) {
      throw new VenueDataError(`${path}: ${err.name === "TimeoutError" ? "timed out" : err.message}`);
    }
    if (response.status === 304 && known) {
      await response.body?.cancel();
      kept.delete(key);
      kept.set(key, known);
      return known.value;
    }
    const text = await response.text();
    if (!response.ok) throw new VenueDataError(`${path} answered ${response.status}: ${problemDetail(text)}`, response.status);
    let value;
    try {
      value = JSON.parse(text);
    } catch {
      throw new VenueDataError(`${path} answered something other than JSON`, response.status);
    }
    const etag = response.headers.get("etag");
    kept.delete(key);
    if (etag && capacity > 0) {
      kept.set(key, { etag, value });
      if (kept.size > capacity) kept.delete(kept.keys().next().value);
    }
    return value;
  }
  __name(get, "get");
  return {
    shows: /* @__PURE__ */ __name((locale) => get(VENUE_DATA_PATHS.shows, { locale }), "shows"),
    events: /* @__PURE__ */ __name((locale, query = {}) => get(VENUE_DATA_PATHS.events, { locale, ...query }), "events"),
    availability: /* @__PURE__ */ __name((locale, query) => get(VENUE_DATA_PATHS.availability, { locale, ...query }), "availability"),
    bookingOptions: /* @__PURE__ */ __name((locale, query) => get(VENUE_DATA_PATHS.bookingOptions, { locale, ...query }), "bookingOptions"),
    routes: /* @__PURE__ */ __name((locale) => get(VENUE_DATA_PATHS.routes, { locale }), "routes"),
    knowledge: /* @__PURE__ */ __name((locale) => get(VENUE_DATA_PATHS.knowledge, { locale, limit: 100 }), "knowledge")
  };
}
__name(createVenueData, "createVenueData");
function problemDetail(text) {
  try {
    const problem = JSON.parse(text);
    return problem.detail ?? problem.title ?? "error";
  } catch {
    return "error";
  }
}
__name(problemDetail, "problemDetail");

export {
  siteOrigins,
  auditLinks,
  closestRoute,
  repairLinks,
  createVenueData
};
