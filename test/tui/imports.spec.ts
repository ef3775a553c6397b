import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const TUI = path.join(ROOT, 'tui');
const SDK = path.join(ROOT, 'sdk');
const SEED = path.join(ROOT, 'seed');
/** Pure, import-free helpers the server and the terminal app share (followed like the rest: they must stay so). */
const SHARED_FILES = [path.join(ROOT, 'server/platform/auth/permissions.ts')];

/** Every module specifier in a source: `import … from`, `import '…'`, `export … from`, `import('…')`. */
export function specifiers(source: string): string[] {
  const found: string[] = [];
  const patterns = [/\bfrom\s*['"]([^'"]+)['"]/g, /\bimport\s*['"]([^'"]+)['"]/g, /\bimport\s*\(\s*['"]([^'"]+)['"]\s*\)/g];
  for (const pattern of patterns) for (const match of source.matchAll(pattern)) found.push(match[1]);
  return found;
}

const inside = (file: string, folder: string) => file === folder || file.startsWith(folder + path.sep);

/**
 * Follows the relative imports of the terminal app's files (and of the SDK and seeder files they reach): each
 * must stay in tui/, sdk/ or seed/, or be one of the shared pure helpers. Package imports (ink, react,
 * openapi-fetch, …) are libraries and allowed.
 */
export function offendingImports(entries: string[], read: (file: string) => string | undefined = (file) => (fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : undefined)) {
  const offending: string[] = [];
  const seen = new Set<string>();
  const queue = [...entries];
  while (queue.length) {
    const file = queue.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    const source = read(file);
    if (source === undefined) continue;
    for (const specifier of specifiers(source)) {
      if (!specifier.startsWith('.') && !specifier.startsWith('/')) continue;
      const target = path.resolve(path.dirname(file), specifier);
      if (!inside(target, TUI) && !inside(target, SDK) && !inside(target, SEED) && !SHARED_FILES.includes(target)) offending.push(`${path.relative(ROOT, file)} imports ${specifier}`);
      // The generated types file is declarations only; everything else is followed.
      else if (/\.tsx?$/.test(target) && !target.endsWith('.d.ts')) queue.push(target);
    }
  }
  return { offending, scanned: [...seen] };
}

function tuiSources(folder = TUI): string[] {
  return fs.readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(folder, entry.name);
    if (entry.isDirectory()) return tuiSources(full);
    return /\.tsx?$/.test(entry.name) ? [full] : [];
  });
}

describe('tui: imports', () => {
  it('reaches the server only through sdk/: no tui/ file (nor an sdk/ or seed/ file it uses) imports outside tui/, sdk/ and seed/', () => {
    const files = tuiSources();
    expect(files.length).to.be.greaterThan(20);
    expect(files.map((file) => path.relative(ROOT, file))).to.include.members(['tui/main.tsx', 'tui/App.tsx']);
    const { offending, scanned } = offendingImports(files);
    expect(offending).to.deep.equal([]);
    // It did follow the app into the SDK.
    expect(scanned.map((file) => path.relative(ROOT, file))).to.include.members(['sdk/index.ts', 'seed/index.ts', 'server/platform/auth/permissions.ts']);
  });

  it('would catch a server import in any syntax', () => {
    const sources: Record<string, string> = {
      [path.join(TUI, 'a.tsx')]: "import { createApp } from '../server/app.ts';\nimport './b.ts';",
      [path.join(TUI, 'b.ts')]: "export { loadConfig } from '../server/config.ts';\nawait import('../test/helpers/server.ts');\nimport '../sdk/c.ts';",
      [path.join(SDK, 'c.ts')]: "import type { Database } from '../server/db/database.ts';\nimport React from 'react';\nimport '../server/platform/auth/permissions.ts';",
      [path.join(ROOT, 'server/platform/auth/permissions.ts')]: "import { Account } from '../../modules/accounts/models.ts';",
    };
    const { offending } = offendingImports([path.join(TUI, 'a.tsx')], (file) => sources[file]);
    expect(offending).to.have.members([
      'tui/a.tsx imports ../server/app.ts',
      'tui/b.ts imports ../server/config.ts',
      'tui/b.ts imports ../test/helpers/server.ts',
      'sdk/c.ts imports ../server/db/database.ts',
      'server/platform/auth/permissions.ts imports ../../modules/accounts/models.ts',
    ]);
  });
});
