import type { StreamTextTransform, TextStreamPart, ToolSet } from 'ai';

/**
 * The link guard (spec §4.1, issue 24 §4): no link leaves the assistant for anywhere but the public site, whatever
 * the model writes — a hosted model that followed an instruction hidden in a message or a document included.
 * Applied to the text as it streams: a word that may be a link is held until it is whole (a Markdown link from
 * its `[`), then a link to another origin loses its target (the label stays, a bare URL goes). Links on the site's
 * origin are left to the link audit, which reports the ones that are not routes.
 */
export interface LinkGuardOptions {
  /** The public site's origins (`https://venue.example`), asked for once, when a link first appears. */
  siteOrigins: () => Promise<Set<string>>;
  /** Called with each link removed (logged and counted by the agent). */
  onRemoved?: (url: string) => void;
}

const MARKDOWN_LINK = /\[([^\]\n]*)\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g;
const BARE_URL = /\b(?:https?:\/\/|www\.)[^\s<>()\[\]"'`]+/gi;

function originOf(url: string): string | undefined {
  try {
    return new URL(url.startsWith('www.') ? `https://${url}` : url).origin.toLowerCase();
  } catch {
    return undefined;
  }
}

/** `text` with every link outside `origins` removed (relative paths are the site's own: the audit checks them). */
export function removeForeignLinks(text: string, origins: ReadonlySet<string>, onRemoved?: (url: string) => void): string {
  const foreign = (url: string) => {
    if (url.startsWith('/') && !url.startsWith('//')) return false;
    const origin = originOf(url.replace(/[.,;:!?]+$/, ''));
    return !origin || !origins.has(origin);
  };
  const kept: string[] = [];
  const withoutMarkdown = text.replace(MARKDOWN_LINK, (whole, label: string, url: string) => {
    if (!foreign(url)) {
      kept.push(whole);
      return `\u0000${kept.length - 1}\u0000`;
    }
    onRemoved?.(url);
    return label;
  });
  return withoutMarkdown
    .replace(BARE_URL, (url) => {
      const trimmed = url.replace(/[.,;:!?]+$/, '');
      if (!foreign(trimmed)) return url;
      onRemoved?.(trimmed);
      return url.slice(trimmed.length);
    })
    .replace(/\u0000(\d+)\u0000/g, (_, index: string) => kept[Number(index)])
    .replace(/[ \t]{2,}/g, ' ');
}

/** How much of `buffer` can leave now: up to a word that may still grow into a link, or an open `[`. */
function safeLength(buffer: string): number {
  let cut = buffer.length;
  // The last word, unless the buffer ends in white space: it may be the start of a URL.
  const lastSpace = Math.max(buffer.lastIndexOf(' '), buffer.lastIndexOf('\n'), buffer.lastIndexOf('\t'));
  if (lastSpace < buffer.length - 1) cut = lastSpace + 1;
  // An open Markdown link: from its `[` until its `)` (or a line end shows it is none).
  const open = buffer.lastIndexOf('[');
  if (open !== -1 && open < cut) {
    const rest = buffer.slice(open);
    const closed = /^\[[^\]\n]*\](?!\()/.test(rest) || /^\[[^\]\n]*\]\([^)\n]*\)/.test(rest) || /^\[[^\]\n]*\n/.test(rest);
    if (!closed) cut = open;
  }
  return cut;
}

export function linkGuard<TOOLS extends ToolSet>(options: LinkGuardOptions): StreamTextTransform<TOOLS> {
  return () => {
    let buffer = '';
    let id = '';
    let origins: Set<string> | undefined;
    const clean = async (text: string) => {
      if (!/https?:\/\/|www\.|\]\(/i.test(text)) return text;
      origins ??= await options.siteOrigins().catch(() => new Set<string>());
      return removeForeignLinks(text, origins, options.onRemoved);
    };
    let last = '';
    const emit = async (controller: TransformStreamDefaultController<TextStreamPart<TOOLS>>, text: string) => {
      if (!text) return;
      let safe = await clean(text);
      // A removed link leaves its two spaces side by side across chunks: one goes.
      if (last === ' ' && safe.startsWith(' ')) safe = safe.slice(1);
      if (!safe) return;
      last = safe.at(-1)!;
      controller.enqueue({ type: 'text-delta', id, text: safe } as TextStreamPart<TOOLS>);
    };
    return new TransformStream<TextStreamPart<TOOLS>, TextStreamPart<TOOLS>>({
      async transform(part, controller) {
        if (part.type === 'text-delta') {
          id = part.id;
          buffer += part.text;
          const cut = safeLength(buffer);
          const ready = buffer.slice(0, cut);
          buffer = buffer.slice(cut);
          await emit(controller, ready);
          return;
        }
        // Anything else ends the text run: what is held leaves first.
        const held = buffer;
        buffer = '';
        await emit(controller, held);
        controller.enqueue(part);
      },
      async flush(controller) {
        const held = buffer;
        buffer = '';
        await emit(controller, held);
      },
    });
  };
}
