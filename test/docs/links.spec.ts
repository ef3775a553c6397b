import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';

/**
 * Every relative link in README.md and docs/ points at something that exists: a file or folder of this
 * repository, and — for a link into a markdown page with `#anchor` — one of that page's headings (GitHub's
 * slugs). Links to other sites and bare `#anchor`s of the page itself are checked too (the latter against its own
 * headings); `mailto:` and `http(s):` links are not fetched.
 */
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export function markdownFiles(root = ROOT): string[] {
  const out = ['README.md'];
  const walk = (dir: string) => {
    if (!fs.existsSync(path.join(root, dir))) return;
    for (const entry of fs.readdirSync(path.join(root, dir), { withFileTypes: true })) {
      const relative = `${dir}/${entry.name}`;
      if (entry.isDirectory()) walk(relative);
      else if (entry.name.endsWith('.md')) out.push(relative);
    }
  };
  walk('docs');
  return out.sort();
}

/** The text outside fenced code blocks and inline code spans (links there are examples, not links). */
function prose(markdown: string): string {
  return markdown
    .replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1\s*$/gm, '')
    .replace(/`[^`\n]*`/g, (span) => (span.includes('](') ? '' : span));
}

/** GitHub's heading anchors: lower case, punctuation out, spaces to `-`, repeats numbered. */
export function anchors(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  const text = markdown.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1\s*$/gm, '');
  for (const match of text.matchAll(/^#{1,6}\s+(.+?)\s*#*\s*$/gm)) {
    const base = match[1]
      .replace(/`/g, '')
      .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    out.add(count === 0 ? base : `${base}-${count}`);
  }
  return out;
}

export interface Link {
  file: string;
  line: number;
  target: string;
}

export function links(file: string, markdown: string): Link[] {
  const out: Link[] = [];
  const text = prose(markdown);
  const lineOf = (index: number) => text.slice(0, index).split('\n').length;
  for (const match of text.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) out.push({ file, line: lineOf(match.index), target: match[1] });
  for (const match of text.matchAll(/^\s*\[[^\]]+\]:\s*(\S+)/gm)) out.push({ file, line: lineOf(match.index), target: match[1] });
  return out;
}

/** Why a link is broken, or undefined when it resolves. */
export function broken(link: Link, root = ROOT): string | undefined {
  if (/^[a-z][a-z0-9+.-]*:/i.test(link.target)) return undefined; // http:, https:, mailto:
  const [rawPath, anchor] = link.target.split('#', 2);
  const filePath = decodeURIComponent(rawPath);
  const resolved = filePath === '' ? path.join(root, link.file) : path.resolve(path.dirname(path.join(root, link.file)), filePath);
  if (!resolved.startsWith(root + path.sep) && resolved !== root) return `${link.target} leaves the repository`;
  if (!fs.existsSync(resolved)) return `${link.target}: ${path.relative(root, resolved)} does not exist`;
  if (anchor && resolved.endsWith('.md') && fs.statSync(resolved).isFile()) {
    if (!anchors(fs.readFileSync(resolved, 'utf8')).has(anchor)) return `${link.target}: no heading #${anchor} in ${path.relative(root, resolved)}`;
  }
  return undefined;
}

describe('README and docs/: relative links', () => {
  const files = markdownFiles();

  it('reads the README and the pages under docs/', () => {
    expect(files).to.include('README.md');
    expect(files).to.include('docs/configuration.md');
    expect(files.length).to.be.greaterThan(5);
  });

  it('has no broken relative link (file, folder, or heading anchor)', () => {
    const problems: string[] = [];
    let count = 0;
    for (const file of files) {
      for (const link of links(file, fs.readFileSync(path.join(ROOT, file), 'utf8'))) {
        count += 1;
        const why = broken(link);
        if (why) problems.push(`${file}:${link.line}: ${why}`);
      }
    }
    expect(count, 'links checked').to.be.greaterThan(20);
    expect(problems, problems.join('\n')).to.deep.equal([]);
  });

  it('catches a broken link (the checker itself)', () => {
    const sample = '# Top\n\n## Some heading: `code` here\n\n[ok](README.md) [anchor](#some-heading-code-here) [gone](no/such/file.md) [bad anchor](#nowhere)\n\n```sh\n[not a link](nowhere.md)\n```\n';
    const found = links('README.md', sample);
    expect(found.map((link) => link.target)).to.deep.equal(['README.md', '#some-heading-code-here', 'no/such/file.md', '#nowhere']);
    const tmp = fs.mkdtempSync(path.join(ROOT, '.links-'));
    try {
      fs.writeFileSync(path.join(tmp, 'page.md'), sample);
      fs.writeFileSync(path.join(tmp, 'README.md'), '');
      const file = path.relative(ROOT, path.join(tmp, 'page.md'));
      const verdicts = links(file, sample).map((link) => broken(link));
      expect(verdicts[0]).to.equal(undefined);
      expect(verdicts[1]).to.equal(undefined);
      expect(verdicts[2]).to.match(/does not exist/);
      expect(verdicts[3]).to.match(/no heading #nowhere/);
    } finally {
      fs.rmSync(tmp, { recursive: true, force: true });
    }
  });
});
