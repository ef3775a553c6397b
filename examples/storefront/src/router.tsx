import { useEffect, useState, type AnchorHTMLAttributes } from 'react';

/**
 * A tiny history router: the site's paths are the ones the API links to (`<PUBLIC_SITE_URL>/<locale>/…`). The
 * path and query string: a page reads its query (`?event=…`) from `window.location`, and renders again when it changes.
 */
export function usePath(): string {
  const [path, setPath] = useState(() => window.location.pathname + window.location.search);
  useEffect(() => {
    const update = () => setPath(window.location.pathname + window.location.search);
    window.addEventListener('popstate', update);
    return () => window.removeEventListener('popstate', update);
  }, []);
  return path;
}

/** Goes to an in-site path without a reload (`replace`: instead of the current history entry, as a redirect does). */
export function navigate(to: string, { replace = false }: { replace?: boolean } = {}): void {
  if (replace) window.history.replaceState(null, '', to);
  else window.history.pushState(null, '', to);
  window.dispatchEvent(new PopStateEvent('popstate'));
  window.scrollTo(0, 0);
}

/** An in-site link (a plain anchor: opens in a new tab as usual, navigates without a reload otherwise). */
export function Link(props: AnchorHTMLAttributes<HTMLAnchorElement> & { href: string }) {
  return (
    <a
      {...props}
      onClick={(event) => {
        if (event.metaKey || event.ctrlKey || event.shiftKey || event.button !== 0) return;
        event.preventDefault();
        navigate(props.href);
      }}
    />
  );
}

/** Matches `/en/book/:eventSlug`-style patterns; the captured segments, decoded, or null. */
export function match(pattern: string, path: string): Record<string, string> | null {
  const names: string[] = [];
  const regex = new RegExp(`^${pattern.replace(/:(\w+)/g, (_m, name) => (names.push(name), '([^/]+)'))}/?$`);
  const found = regex.exec(path);
  if (!found) return null;
  return Object.fromEntries(names.map((name, i) => [name, decodeURIComponent(found[i + 1])]));
}
