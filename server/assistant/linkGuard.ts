import type { StreamTextTransform, TextStreamPart, ToolSet } from 'ai';

/**
 * The link guard (spec §4.1, issues 24 §4 and 32 §1): no link leaves the assistant for anywhere but the public
 * site, whatever the model writes — a hosted model that followed an instruction hidden in a message or a
 * document included. Every place a browser, a Markdown renderer or a chat platform could find a link is a
 * candidate: Markdown links and images (`[x](…)`, `![x](…)`), reference definitions (`[1]: …`), autolinks
 * (`<https://…>`), raw HTML (`href`, `src`, `action`, `formaction` and the other URL attributes, quoted or not)
 * and bare URLs. Each candidate is judged the way a browser resolves it — HTML entities decoded, Markdown
 * backslash escapes undone, percent-encoding decoded, control characters dropped, white space trimmed, then WHATWG
 * `new URL(candidate, site)` (which reads `\` as `/`, so `/\evil.example` is `//evil.example`) — and kept only
 * when every reading of it lands on the site's origin over http(s). A link to anywhere else loses its target
 * (the label stays; a bare URL, an autolink or a foreign HTML tag goes). Links on the site's origin are left to
 * the link audit, which reports the ones that are not routes.
 *
 * Applied to the text as it streams: a word that may be a link is held until it is whole (a Markdown link from
 * its `[`, an HTML tag from its `<`), so a link split across chunks is judged whole; the same function cleans
 * the non-streaming answer (the chat platforms).
 */
export interface LinkGuardOptions {
  /** The public site's origins (`https://venue.example`), asked for once, when a link first appears. */
  siteOrigins: () => Promise<Set<string>>;
  /** Called with each link removed (logged and counted by the agent). */
  onRemoved?: (url: string) => void;
}

/** What a stream remembers between chunks: the `<a>` tags it opened, so a removed one's `</a>` goes too. */
export interface LinkGuardState {
  anchors: Array<'removed' | 'kept'>;
}

/** Relative links resolve here when the route data named no site (they are then the site's own). */
const NO_SITE = 'https://site.invalid';

/** Whether `text` may hold a link at all (a cheap test before the route data is asked for). */
export function mayHoldLink(text: string): boolean {
  return /[/\\][/\\]|www\.|\]\(|\]:|<|&/i.test(text);
}

// ---------------------------------------------------------------------------------------------------------------
// Reading a candidate as a browser does

/** HTML's named character references that can shape a URL (compared in lower case: over-decoding only adds readings). */
const NAMED: Record<string, string> = {
  amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", colon: ':', sol: '/', bsol: '\\', period: '.', comma: ',', semi: ';',
  equals: '=', quest: '?', num: '#', percnt: '%', commat: '@', lpar: '(', rpar: ')', lsqb: '[', rsqb: ']', lbrack: '[',
  rbrack: ']', lcub: '{', rcub: '}', lbrace: '{', rbrace: '}', lowbar: '_', hyphen: '-', dash: '-', excl: '!', plus: '+',
  ast: '*', midast: '*', dollar: '$', grave: '`', verbar: '|', vert: '|', tilde: '~', hat: '^', tab: '\t', newline: '\n',
  nbsp: '\u00a0', shy: '\u00ad', zwsp: '\u200b', zwj: '\u200d', zwnj: '\u200c',
};

/** `text` with its character references decoded (numeric ones with or without `;`, named ones with it). */
export function decodeEntities(text: string): string {
  if (!text.includes('&')) return text;
  return text.replace(/&(?:#x([0-9a-f]{1,8});?|#(\d{1,10});?|([a-z][a-z0-9]{1,31});)/gi, (whole, hex?: string, dec?: string, name?: string) => {
    if (name !== undefined) return NAMED[name.toLowerCase()] ?? whole;
    const code = hex !== undefined ? parseInt(hex, 16) : Number(dec);
    return code > 0 && code <= 0x10ffff && !(code >= 0xd800 && code <= 0xdfff) ? String.fromCodePoint(code) : '\ufffd';
  });
}

/** Markdown's backslash escapes undone (`\/` is `/`; `\e` stays, and a browser then reads that `\` as `/`). */
const unescapeMarkdown = (text: string) => text.replace(/\\([!-/:-@[-`{-~])/g, '$1');
/** Percent-encoded ASCII decoded (a browser decodes it in a host; a server may in a path). */
const percentDecode = (text: string) => text.replace(/%([0-7][0-9a-f])/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
/**
 * Control and invisible format characters dropped: a browser drops tabs and line ends anywhere in a URL
 * (`java\nscript:` is `javascript:`); the others are dropped too, so that no reading hides behind them.
 */
const dropInvisible = (text: string) => text.replace(/[\u0000-\u001f\u007f-\u009f\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180e\u200b-\u200f\u202a-\u202e\u2060-\u206f\ufeff]/g, '');
/** An angle-bracketed Markdown destination or a quoted attribute value, unwrapped. */
const unwrap = (text: string) => text.trim().replace(/^<([^<>]*)>$/, '$1').replace(/^(["'])(.*)\1$/s, '$2');

const READINGS = [decodeEntities, unescapeMarkdown, percentDecode, dropInvisible, unwrap];

/** Every way the candidate may be read: each decoding, alone and in combination (a few rounds deep). */
function readings(candidate: string): string[] {
  const seen = new Set<string>();
  let frontier = [candidate.length > 4096 ? candidate.slice(0, 4096) : candidate];
  for (let round = 0; round < 4 && frontier.length; round++) {
    const next: string[] = [];
    for (const form of frontier) {
      if (seen.has(form)) continue;
      seen.add(form);
      for (const read of READINGS) next.push(read(form));
    }
    frontier = next;
  }
  for (const form of frontier) seen.add(form);
  return [...seen];
}

/**
 * Whether a link target stays on the public site: every reading of it, resolved by WHATWG `new URL` against the
 * site's origin, is an http(s) URL of one of `origins` (a relative path is the site's own). A target a browser
 * could not resolve counts as foreign.
 */
export function onSite(candidate: string, origins: ReadonlySet<string>): boolean {
  const base = [...origins].find((origin) => /^https?:\/\//.test(origin)) ?? NO_SITE;
  return readings(candidate).every((form) => {
    let url: URL;
    try {
      url = new URL(form, base);
    } catch {
      return false;
    }
    if (url.protocol !== 'https:' && url.protocol !== 'http:') return false;
    const origin = url.origin.toLowerCase();
    return origin === base || origins.has(origin);
  });
}

// ---------------------------------------------------------------------------------------------------------------
// Finding the candidates

interface Edit {
  from: number;
  to: number;
  text: string;
}

/** `text` with `edits` (in order, not overlapping) applied; a removal between two spaces takes one of them. */
function applyEdits(text: string, edits: Edit[]): string {
  if (!edits.length) return text;
  let out = '';
  let at = 0;
  for (const edit of edits.sort((a, b) => a.from - b.from)) {
    if (edit.from < at) continue;
    out += text.slice(at, edit.from) + edit.text;
    at = edit.to;
    if (edit.text === '' && /[ \t]$/.test(out) && /[ \t]/.test(text[at] ?? '')) at += 1;
  }
  return out + text.slice(at);
}

/** White space (ASCII and Unicode), read a character at a time. */
function isSpace(char: string | undefined): boolean {
  if (char === undefined) return false;
  const code = char.charCodeAt(0);
  if (code === 0x20 || (code >= 0x09 && code <= 0x0d)) return true;
  return code > 0x7f && /\s/.test(char);
}

/** Skips spaces and tabs and at most one line end; undefined at a blank line. */
function skipSpace(text: string, from: number): number | undefined {
  let at = from;
  let lines = 0;
  while (at < text.length && isSpace(text[at])) {
    if (text[at] === '\n' && ++lines > 1) return undefined;
    at += 1;
  }
  return at;
}

export interface Destination {
  /** The destination as written (without its angle brackets). */
  url: string;
  /** Everything between `(` and the closing `)` (or the end of the text or a blank line). */
  content: string;
  /** Index after the closing `)`, or where the content stops. */
  end: number;
  /** Whether CommonMark reads a link here (a destination, an optional title, then `)`). */
  valid: boolean;
  /** Whether the text ended before the destination did (a stream holds it). */
  open: boolean;
}

/** The inline link destination that starts after a `](` at `start` (CommonMark's rules, read leniently). */
export function parseDestination(text: string, start: number): Destination {
  // Where the content ends whatever CommonMark says: the `)` that balances, a blank line, or the end.
  let depth = 0;
  let contentEnd = start;
  let closed = false;
  for (; contentEnd < text.length; contentEnd++) {
    const char = text[contentEnd];
    if (char === '\\') {
      contentEnd += 1;
      continue;
    }
    if (char === '\n' && /^\n[ \t]*\n/.test(text.slice(contentEnd, contentEnd + 64))) break;
    if (char === '(') depth += 1;
    if (char === ')') {
      if (depth === 0) {
        closed = true;
        break;
      }
      depth -= 1;
    }
  }
  const content = text.slice(start, contentEnd);
  const lenient = { content, end: closed ? contentEnd + 1 : contentEnd, open: !closed && contentEnd >= text.length };

  let at = skipSpace(text, start);
  if (at === undefined) return { url: '', valid: false, ...lenient };
  let url: string;
  if (text[at] === '<') {
    const close = text.slice(at + 1).search(/[<>\n]/);
    if (close === -1 || text[at + 1 + close] !== '>') return { url: content, valid: false, ...lenient };
    url = text.slice(at + 1, at + 1 + close);
    at = at + close + 2;
  } else {
    let parens = 0;
    const from = at;
    for (; at < text.length; at++) {
      const char = text[at];
      if (char === '\\' && at + 1 < text.length) {
        at += 1;
        continue;
      }
      if (char.charCodeAt(0) <= 0x20 || char === '\u007f' || isSpace(char)) break;
      if (char === '(') parens += 1;
      if (char === ')') {
        if (parens === 0) break;
        parens -= 1;
      }
    }
    url = text.slice(from, at);
  }
  const afterUrl = skipSpace(text, at);
  if (afterUrl === undefined) return { url, valid: false, ...lenient };
  at = afterUrl;
  const quote = text[at];
  if ((quote === '"' || quote === "'" || quote === '(') && at > start && isSpace(text[at - 1])) {
    const closer = quote === '(' ? ')' : quote;
    let end = at + 1;
    for (; end < text.length && text[end] !== closer; end++) if (text[end] === '\\') end += 1;
    if (end >= text.length) return { url, valid: false, ...lenient };
    const next = skipSpace(text, end + 1);
    if (next === undefined) return { url, valid: false, ...lenient };
    at = next;
  }
  if (text[at] === ')') return { url, content, end: at + 1, valid: true, open: false };
  return { url, valid: false, ...lenient };
}

/** The `[` that opens the label whose `]` is at `close`, or -1 (not before `floor`, nor across a blank line). */
function openingBracket(text: string, close: number, floor: number): number {
  let depth = 0;
  for (let at = close - 1; at >= floor && close - at <= 2000; at--) {
    const char = text[at];
    if (text[at - 1] === '\\') continue;
    if (char === '\n' && text[at - 1] === '\n') return -1;
    if (char === ']') depth += 1;
    if (char === '[') {
      if (depth === 0) return at;
      depth -= 1;
    }
  }
  return -1;
}

/** Inline Markdown links and images: a foreign target goes with its brackets, the label stays. */
function inlineLinks(text: string, origins: ReadonlySet<string>, removed: (url: string) => void): string {
  const edits: Edit[] = [];
  let floor = 0;
  for (let at = text.indexOf(']('); at !== -1; at = text.indexOf('](', at + 1)) {
    if (at < floor) continue;
    const destination = parseDestination(text, at + 2);
    const foreign = !onSite(destination.url, origins) || (!destination.valid && !onSite(unwrap(destination.content), origins));
    if (!foreign) {
      if (destination.valid) floor = destination.end;
      continue;
    }
    removed(destination.url || destination.content);
    const open = openingBracket(text, at, floor);
    if (open !== -1) edits.push({ from: open > 0 && text[open - 1] === '!' ? open - 1 : open, to: open + 1, text: '' });
    edits.push({ from: at, to: destination.end, text: '' });
    floor = destination.end;
    at = destination.end - 1;
  }
  return applyEdits(text, edits);
}

const DEFINITION = /\[((?:[^[\]\\\n]|\\.){1,999})\]:[ \t]*(?:\n[ \t]*)?(<[^<>\n]*>|[^\s<]\S*)[^\n]*/g;
const normalizeLabel = (label: string) => label.trim().replace(/\s+/g, ' ').toLowerCase();

/** Reference definitions (`[1]: //evil.example "title"`): a foreign one goes, and `[text][1]` becomes `text`. */
function referenceLinks(text: string, origins: ReadonlySet<string>, removed: (url: string) => void): string {
  if (!text.includes(']:')) return text;
  const gone = new Set<string>();
  let out = text.replace(DEFINITION, (whole, label: string, url: string) => {
    if (onSite(unwrap(url), origins)) return whole;
    removed(unwrap(url));
    gone.add(normalizeLabel(label));
    return '';
  });
  if (gone.size) {
    out = out.replace(/(!?)\[((?:[^[\]\\\n]|\\.)*)\]\[((?:[^[\]\\\n]|\\.)*)\]/g, (whole, _bang: string, label: string, ref: string) =>
      gone.has(normalizeLabel(ref || label)) ? label : whole,
    );
  }
  return out;
}

/** HTML attributes whose value a browser follows, fetches or submits to. */
const URL_ATTRIBUTES = new Set([
  'href', 'src', 'action', 'formaction', 'srcset', 'imagesrcset', 'poster', 'background', 'cite', 'data', 'ping', 'xlink:href',
  'manifest', 'codebase', 'longdesc', 'lowsrc', 'dynsrc', 'icon', 'archive', 'usemap', 'profile', 'classid',
]);

interface Tag {
  name: string;
  attributes: Array<[string, string]>;
  /** Index after its `>` (or the end of the text: a tag the text ends inside). */
  end: number;
  /** Whether the text ended before its `>`. */
  open: boolean;
}

/** The start tag at `start` (`<` then a letter), read as HTML's tokenizer does: quoted values may hold `>`. */
export function parseTag(text: string, start: number): Tag {
  const name = (stickyMatch(TAG_NAME, text, start + 1) ?? '').toLowerCase();
  let at = start + 1 + name.length;
  const attributes: Array<[string, string]> = [];
  while (at < text.length) {
    while (at < text.length && (isSpace(text[at]) || text[at] === '/')) at += 1;
    if (at >= text.length) break;
    if (text[at] === '>') return { name, attributes, end: at + 1, open: false };
    const attrName = stickyMatch(ATTRIBUTE_NAME, text, at)!;
    at += attrName.length;
    let value = '';
    let cursor = at;
    while (cursor < text.length && isSpace(text[cursor])) cursor += 1;
    if (text[cursor] === '=') {
      cursor += 1;
      while (cursor < text.length && isSpace(text[cursor])) cursor += 1;
      const quote = text[cursor];
      if (quote === '"' || quote === "'") {
        const close = text.indexOf(quote, cursor + 1);
        value = text.slice(cursor + 1, close === -1 ? text.length : close);
        at = close === -1 ? text.length : close + 1;
      } else {
        value = stickyMatch(UNQUOTED_VALUE, text, cursor) ?? '';
        at = cursor + value.length;
      }
    }
    attributes.push([attrName.toLowerCase(), value]);
  }
  return { name, attributes, end: text.length, open: true };
}

const TAG_NAME = /[a-zA-Z][^\s/>]*/y;
const ATTRIBUTE_NAME = /[^\s/>][^\s/>=]*/y;
const UNQUOTED_VALUE = /[^\s>]*/y;

/** What a sticky pattern matches at `at` (no copy of the text). */
function stickyMatch(pattern: RegExp, text: string, at: number): string | undefined {
  pattern.lastIndex = at;
  return pattern.exec(text)?.[0];
}

/** The link targets a tag's attributes hold (an event handler counts as foreign: it can navigate anywhere). */
function tagIsForeign(tag: Tag, origins: ReadonlySet<string>): string | undefined {
  for (const [name, value] of tag.attributes) {
    if (/^on/.test(name)) return `${name}=${value}`;
    const targets: string[] = [];
    if (URL_ATTRIBUTES.has(name)) {
      if (name.endsWith('srcset') || name === 'ping' || name === 'archive') targets.push(...decodeEntities(value).split(/[,\s]+/).filter(Boolean));
      targets.push(value);
    }
    if (name === 'content' && tag.name === 'meta') {
      const refresh = /url\s*=\s*(.*)$/is.exec(decodeEntities(value));
      if (refresh) targets.push(refresh[1]);
    }
    if (name === 'style') for (const match of decodeEntities(value).matchAll(/url\s*\(\s*(['"]?)(.*?)\1\s*\)/gis)) targets.push(match[2]);
    for (const target of targets) if (!onSite(target, origins)) return target;
  }
  return undefined;
}

const AUTOLINK = /^<([a-zA-Z][a-zA-Z0-9+.-]{1,31}:[^\s<>]*)>/;

/** Raw HTML and autolinks: a foreign `<a …>` goes with its `</a>` (the text between stays), any other foreign tag goes. */
function htmlLinks(text: string, origins: ReadonlySet<string>, removed: (url: string) => void, state: LinkGuardState): string {
  if (!text.includes('<')) return text;
  const edits: Edit[] = [];
  for (let at = text.indexOf('<'); at !== -1; at = text.indexOf('<', at + 1)) {
    const rest = text.slice(at, at + 4200);
    const autolink = AUTOLINK.exec(rest);
    if (autolink) {
      if (!onSite(autolink[1], origins)) {
        removed(autolink[1]);
        edits.push({ from: at, to: at + autolink[0].length, text: '' });
      }
      at += autolink[0].length - 1;
      continue;
    }
    const closing = /^<\/a[\s/]*>/i.exec(rest);
    if (closing) {
      if (state.anchors.pop() === 'removed') edits.push({ from: at, to: at + closing[0].length, text: '' });
      at += closing[0].length - 1;
      continue;
    }
    if (!/^<[a-zA-Z]/.test(rest)) continue;
    const tag = parseTag(text, at);
    const foreign = tagIsForeign(tag, origins);
    if (tag.name === 'a') state.anchors.push(foreign ? 'removed' : 'kept');
    if (foreign !== undefined) {
      removed(foreign);
      edits.push({ from: at, to: tag.end, text: '' });
    }
    at = tag.end - 1;
  }
  return applyEdits(text, edits);
}

/** A bare URL: a scheme with `//` (or `\\`), `www.`, or `//host` at the start of a word. */
const BARE_URL = /(?:\b[a-z][a-z0-9+.-]*:[/\\]{2}|\bwww\.|(?<=^|[\s(["'`=>{|,;])[/\\]{2}(?=[^\s/\\]))[^\s<>]*/gi;

/** A bare URL's end as an autolinker reads it: trailing punctuation and an unbalanced `)` or `]` are not part of it. */
function trimBare(url: string): string {
  let out = url;
  for (;;) {
    const before = out;
    out = out.replace(/[?!.,:;*_~'"]+$/, '');
    for (const [open, close] of [['(', ')'], ['[', ']']]) {
      if (out.endsWith(close) && out.split(close).length > out.split(open).length) out = out.slice(0, -1);
    }
    if (out === before) return out;
  }
}

const bareTarget = (url: string) => (/^www\./i.test(url) ? `https://${url}` : url);

/** Bare URLs: a foreign one goes (a word that only reads as one once its entities are decoded goes whole). */
function bareLinks(text: string, origins: ReadonlySet<string>, removed: (url: string) => void): string {
  const edits: Edit[] = [];
  for (const match of text.matchAll(BARE_URL)) {
    const url = trimBare(match[0]);
    if (!url || onSite(bareTarget(url), origins)) continue;
    // `https://evil.example](/en/shows)`: the URL up to the bracket goes, the rest is judged on its own.
    const short = /^[^)\]"'`]*/.exec(url)![0];
    const cut = short.length < url.length && !onSite(bareTarget(short), origins) ? short : url;
    removed(cut);
    edits.push({ from: match.index, to: match.index + cut.length, text: '' });
  }
  if (text.includes('&')) {
    for (const word of text.matchAll(/\S*&\S*/g)) {
      const decoded = decodeEntities(word[0]);
      if (decoded === word[0]) continue;
      const foreign = [...decoded.matchAll(BARE_URL)].some((match) => {
        const url = trimBare(match[0]);
        return url !== '' && !onSite(bareTarget(url), origins);
      });
      if (!foreign) continue;
      removed(word[0]);
      // The whole word goes: drop what was already taken out of it.
      for (let i = edits.length - 1; i >= 0; i--) if (edits[i].from >= word.index && edits[i].to <= word.index + word[0].length) edits.splice(i, 1);
      edits.push({ from: word.index, to: word.index + word[0].length, text: '' });
    }
  }
  return applyEdits(text, edits);
}

/**
 * `text` with every link outside `origins` removed (relative paths are the site's own: the audit checks them).
 * `state` carries the `<a>` tags a stream has opened from one chunk to the next.
 */
export function removeForeignLinks(text: string, origins: ReadonlySet<string>, onRemoved?: (url: string) => void, state: LinkGuardState = { anchors: [] }): string {
  if (!mayHoldLink(text)) return text;
  const removed = (url: string) => onRemoved?.(url);
  // Removing one link may join what was around it into another: again until nothing changes.
  let out = text;
  for (let round = 0; round < 5; round++) {
    const before = out;
    out = inlineLinks(out, origins, removed);
    out = referenceLinks(out, origins, removed);
    out = htmlLinks(out, origins, removed, round === 0 ? state : { anchors: [] });
    out = bareLinks(out, origins, removed);
    if (out === before) break;
  }
  return out;
}

// ---------------------------------------------------------------------------------------------------------------
// The stream

/**
 * How much of `buffer` can leave now: nothing of a word that may still grow into a link, nor of a Markdown
 * link, image or reference definition, an HTML tag or an autolink that is not yet closed or that the cut would
 * split. A cut is always at white space (or the buffer's start), so a word is judged whole.
 */
export function safeLength(buffer: string): number {
  // The last word, unless the buffer ends in white space: it may be the start of a URL.
  let cut = /\s$/.test(buffer) ? buffer.length : buffer.search(/\S*$/);
  const spans = constructs(buffer);
  for (let moved = true; moved && cut > 0; ) {
    moved = false;
    for (const [start, end] of spans) {
      if (start < cut && cut < end) {
        cut = start;
        moved = true;
      }
    }
    // Back to the start of the word the cut falls in.
    while (cut > 0 && !isSpace(buffer[cut - 1])) {
      cut -= 1;
      moved = true;
    }
  }
  return cut;
}

/** Where a label may run on unclosed before it leaves as text (a foreign destination after it still goes). */
const MAX_LABEL = 1000;

/**
 * The spans of `buffer` that must leave in one piece, `[start, end)`, in order, up to the first one still open
 * (its `end` Infinity: nothing after its start can leave yet).
 */
function constructs(buffer: string): Array<[number, number]> {
  const spans: Array<[number, number]> = [];
  // Markdown does not run over a blank line; HTML may.
  const blank = buffer.search(/\n[ \t]*\n(?![\s\S]*\n[ \t]*\n)/);
  const from = blank === -1 ? 0 : blank;
  const starts = /\]\(|\[|</g;
  for (let match = starts.exec(buffer); match; match = starts.exec(buffer)) {
    const at = match.index;
    let end: number | undefined;
    if (match[0] === '](') {
      if (at < from) continue;
      const destination = parseDestination(buffer, at + 2);
      end = destination.open ? Infinity : destination.end;
    } else if (match[0] === '[') {
      if (at < from || buffer[at - 1] === '\\') continue;
      end = bracketEnd(buffer, at);
      if (end === Infinity && buffer.length - at > MAX_LABEL) end = undefined;
    } else {
      const rest = buffer.slice(at, at + 3);
      if (rest === '<' || rest === '</') end = Infinity;
      else if (/^<\/[a-zA-Z]/.test(rest)) {
        const close = buffer.indexOf('>', at);
        end = close === -1 ? Infinity : close + 1;
      } else if (/^<[a-zA-Z]/.test(rest)) {
        const tag = parseTag(buffer, at);
        end = tag.open ? Infinity : tag.end;
      }
    }
    if (end === undefined) continue;
    spans.push([at, end]);
    if (end === Infinity) break;
    // The `](` of a link just read is its own: go on after the construct's start.
    starts.lastIndex = at + match[0].length;
  }
  return spans;
}

/**
 * Where the Markdown construct that the `[` at `open` starts ends: after its destination, after its reference
 * definition's line, Infinity while it may still become one; undefined when it is plain text.
 */
function bracketEnd(buffer: string, open: number): number | undefined {
  let depth = 0;
  for (let at = open + 1; at < buffer.length; at++) {
    const char = buffer[at];
    if (char === '\\') {
      at += 1;
      continue;
    }
    if (char === '\n' && /^\n[ \t]*\n/.test(buffer.slice(at))) return undefined;
    if (char === '[') depth += 1;
    if (char !== ']') continue;
    if (depth > 0) {
      depth -= 1;
      continue;
    }
    const after = buffer[at + 1];
    if (after === undefined) return Infinity;
    if (after === '(') {
      const destination = parseDestination(buffer, at + 2);
      return destination.open ? Infinity : destination.end;
    }
    if (after === ':') {
      // A reference definition: until its line (and its destination's, when that starts on the next) ends.
      const line = /^:[ \t]*(?:\n[ \t]*)?\S[^\n]*\n/.exec(buffer.slice(at + 1));
      return line ? at + 1 + line[0].length : Infinity;
    }
    return undefined;
  }
  return Infinity;
}

export function linkGuard<TOOLS extends ToolSet>(options: LinkGuardOptions): StreamTextTransform<TOOLS> {
  return () => {
    let buffer = '';
    let id = '';
    let origins: Set<string> | undefined;
    const state: LinkGuardState = { anchors: [] };
    const clean = async (text: string) => {
      if (!mayHoldLink(text)) return text;
      origins ??= await options.siteOrigins().catch(() => new Set<string>());
      return removeForeignLinks(text, origins, options.onRemoved, state);
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
