/** @jsxRuntime automatic */
// (The pragma above: the markdown spec renders this file in Node, where tsx reads the backend's tsconfig, not this one.)
import type { MouseEvent, ReactNode } from 'react';
import { vnd } from './format.ts';
import type { Locale } from './i18n.ts';
import { navigate } from './router.tsx';

/**
 * The assistant's Markdown, rendered safely (issue 34 §4): paragraphs and line breaks, `**bold**`, `*emphasis*`,
 * `` `code` ``, bullet and numbered lists, headings (as bold lines), `[links](https://…)` and bare URLs. It builds
 * React elements from text, never HTML: a `<script>` or `<img onerror>` in an answer is shown as the text it is.
 * Links go only to http(s) addresses or this site's paths (a `javascript:` URL stays text); this site's own links
 * open in place. Prices ("1,500,000 VND", "1.500.000 ₫") are written in the site's format.
 */
export function Markdown({ text, locale, onNavigate }: { text: string; locale: Locale; onNavigate?: () => void }) {
  return <>{blocks(text).map((block, i) => renderBlock(block, i, { locale, onNavigate }))}</>;
}

type Block = { kind: 'p'; lines: string[] } | { kind: 'ul' | 'ol'; items: string[] } | { kind: 'h'; text: string };
interface Context {
  locale: Locale;
  onNavigate?: () => void;
}

function blocks(text: string): Block[] {
  const out: Block[] = [];
  const last = () => out[out.length - 1];
  for (const raw of text.replace(/\r\n?/g, '\n').split('\n')) {
    const line = raw.trimEnd();
    const bullet = /^\s*[-*•]\s+(.*)$/.exec(line);
    const numbered = /^\s*\d{1,3}[.)]\s+(.*)$/.exec(line);
    const heading = /^\s*#{1,6}\s+(.*)$/.exec(line);
    if (!line.trim()) out.push({ kind: 'p', lines: [] });
    else if (bullet || numbered) {
      const kind = bullet ? 'ul' : 'ol';
      const item = (bullet ?? numbered)![1];
      const previous = last();
      if (previous && previous.kind === kind) previous.items.push(item);
      else out.push({ kind, items: [item] });
    } else if (heading) out.push({ kind: 'h', text: heading[1] });
    else {
      const previous = last();
      // A line indented under a list item continues it.
      if (previous && (previous.kind === 'ul' || previous.kind === 'ol') && /^\s{2,}\S/.test(raw)) previous.items[previous.items.length - 1] += ` ${line.trim()}`;
      else if (previous && previous.kind === 'p') previous.lines.push(line);
      else out.push({ kind: 'p', lines: [line] });
    }
  }
  return out.filter((block) => block.kind !== 'p' || block.lines.length > 0);
}

function renderBlock(block: Block, key: number, context: Context): ReactNode {
  if (block.kind === 'h') return <p key={key}><strong>{inline(block.text, context)}</strong></p>;
  if (block.kind !== 'p') {
    const List = block.kind;
    return (
      <List key={key}>
        {block.items.map((item, i) => (
          <li key={i}>{inline(item, context)}</li>
        ))}
      </List>
    );
  }
  return (
    <p key={key}>
      {block.lines.map((line, i) => (
        <span key={i}>
          {i > 0 && <br />}
          {inline(line, context)}
        </span>
      ))}
    </p>
  );
}

const INLINE = /\*\*(.+?)\*\*|__(.+?)__|`([^`]+)`|\[([^\]]+)\]\(([^)\s]+)\)|(https?:\/\/[^\s<>()\]]*[^\s<>()\].,;:!?'"])|\*([^*\s][^*]*?)\*/g;

function inline(text: string, context: Context): ReactNode[] {
  const out: ReactNode[] = [];
  let last = 0;
  let key = 0;
  for (const found of text.matchAll(INLINE)) {
    if (found.index > last) out.push(...prices(text.slice(last, found.index), context.locale));
    const [, bold, bold2, code, label, href, bare, em] = found;
    if (bold !== undefined || bold2 !== undefined) out.push(<strong key={key++}>{inline(bold ?? bold2, context)}</strong>);
    else if (code !== undefined) out.push(<code key={key++}>{code}</code>);
    else if (label !== undefined) out.push(link(href, inline(label, context), key++, context) ?? found[0]);
    else if (bare !== undefined) out.push(link(bare, bare, key++, context) ?? bare);
    else if (em !== undefined) out.push(<em key={key++}>{inline(em, context)}</em>);
    last = found.index + found[0].length;
  }
  if (last < text.length) out.push(...prices(text.slice(last), context.locale));
  return out;
}

/** An anchor for http(s) URLs and this site's paths; null for anything else (`javascript:`, `data:` …). */
function link(href: string, children: ReactNode, key: number, context: Context): ReactNode | null {
  let url: URL;
  try {
    url = new URL(href, window.location.origin);
  } catch {
    return null;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return null;
  const own = url.origin === window.location.origin;
  const onClick = own
    ? (event: MouseEvent<HTMLAnchorElement>) => {
        if (event.metaKey || event.ctrlKey || event.shiftKey || event.button !== 0) return;
        event.preventDefault();
        navigate(url.pathname + url.search + url.hash);
        context.onNavigate?.();
      }
    : undefined;
  return (
    <a key={key} href={url.href} onClick={onClick} {...(own ? {} : { rel: 'noopener noreferrer' })}>
      {children}
    </a>
  );
}

const PRICE = /(?:₫\s?(\d{1,3}(?:[.,\u00a0 ]\d{3})+|\d+))|(?:(\d{1,3}(?:[.,\u00a0 ]\d{3})+|\d+)\s?(?:VND|VNĐ|₫|đồng|đ)(?![\p{L}\p{N}]))/gu;

/** Amounts in VND, however the text writes them, in the site's format: "₫1,500,000" (en), "1.500.000 ₫" (vi). */
export function prices(text: string, locale: Locale): string[] {
  return [text.replace(PRICE, (whole, before: string | undefined, after: string | undefined) => {
    const digits = (before ?? after ?? '').replace(/\D/g, '');
    return digits ? vnd(Number(digits), locale) : whole;
  })];
}
