/**
 * The background turns' link audit (spec §4.1, §4.7 rule 1): an internal link the agent's audit found invalid is
 * replaced by the closest valid route — the candidate on the same site whose path shares the most leading
 * segments with it (then the shortest). Candidates are the answer's own valid links and the locale's public
 * routes (`/api/ai/customer-support/catalog/routes`). With no candidate on that site, the link is dropped.
 */
export function closestRoute(invalid: string, candidates: string[]): string | undefined {
  let target: URL;
  try {
    target = new URL(invalid);
  } catch {
    return undefined;
  }
  const segments = (url: URL) => url.pathname.split('/').filter(Boolean);
  const wanted = segments(target);
  let best: { url: string; shared: number; length: number } | undefined;
  for (const candidate of candidates) {
    let url: URL;
    try {
      url = new URL(candidate);
    } catch {
      continue;
    }
    if (url.origin !== target.origin) continue;
    const path = segments(url);
    let shared = 0;
    while (shared < path.length && shared < wanted.length && path[shared] === wanted[shared]) shared++;
    if (!best || shared > best.shared || (shared === best.shared && path.length < best.length)) best = { url: candidate, shared, length: path.length };
  }
  return best?.url;
}

/** `text` with every invalid link replaced (longest first, so a link is never replaced inside a longer one). */
export function repairLinks(text: string, invalid: string[], candidates: string[]): { text: string; replaced: Array<{ from: string; to: string | null }> } {
  const replaced: Array<{ from: string; to: string | null }> = [];
  let out = text;
  for (const link of [...new Set(invalid)].sort((a, b) => b.length - a.length)) {
    if (!out.includes(link)) continue;
    const to = closestRoute(link, candidates) ?? null;
    out = out.split(link).join(to ?? '');
    replaced.push({ from: link, to });
  }
  if (replaced.some((r) => r.to === null)) out = out.replace(/\(\s*\)/g, '').replace(/[ \t]{2,}/g, ' ');
  return { text: out, replaced };
}

/** Every absolute http(s) URL in a JSON value (the route data), except under `patterns` (templates, not links). */
export function urlsIn(value: unknown, out: string[] = []): string[] {
  if (typeof value === 'string') {
    if (/^https?:\/\/\S+$/.test(value) && !value.includes('{')) out.push(value);
  } else if (Array.isArray(value)) {
    for (const item of value) urlsIn(item, out);
  } else if (value && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) if (key !== 'patterns') urlsIn(item, out);
  }
  return out;
}
