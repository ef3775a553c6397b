import { expect } from 'chai';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const SERVER = path.join(ROOT, 'server');

/**
 * The layers point down (DESIGN.md "Layout"; issue 22 item 6): `server/platform/` knows no venue and imports
 * neither `domain/` nor `modules/`; `server/domain/` (venue rules several modules share) imports `platform/`
 * only; a module reaches another module only through that module's `index.ts`. Type-only imports count too: a
 * type is a dependency a reader has to follow.
 */
function sources(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) return sources(file);
    return /\.tsx?$/.test(entry.name) ? [file] : [];
  });
}

/** Every relative import of `file`, resolved to a path under the project (static and dynamic). */
function importsOf(file: string): string[] {
  const text = fs.readFileSync(file, 'utf8');
  const specs = [...text.matchAll(/(?:^|\n)\s*(?:import|export)\s[^;]*?from\s+['"](\.{1,2}\/[^'"]+)['"]/g), ...text.matchAll(/import\(\s*['"](\.{1,2}\/[^'"]+)['"]\s*\)/g)].map((m) => m[1]);
  return specs.map((spec) => path.resolve(path.dirname(file), spec));
}

const within = (file: string, dir: string) => !path.relative(path.join(SERVER, dir), file).startsWith('..');
const rel = (file: string) => path.relative(ROOT, file);

describe('layering: platform → domain → modules, never back', () => {
  it('server/platform imports nothing from domain/, modules/, the assistant or the app', () => {
    const wrong = sources(path.join(SERVER, 'platform')).flatMap((file) =>
      importsOf(file)
        .filter((target) => target.startsWith(SERVER + path.sep) && !within(target, 'platform'))
        .map((target) => `${rel(file)} → ${rel(target)}`),
    );
    expect(wrong).to.deep.equal([]);
  });

  it('server/domain imports platform/ only (and itself)', () => {
    const wrong = sources(path.join(SERVER, 'domain')).flatMap((file) =>
      importsOf(file)
        .filter((target) => target.startsWith(SERVER + path.sep) && !within(target, 'platform') && !within(target, 'domain'))
        .map((target) => `${rel(file)} → ${rel(target)}`),
    );
    expect(wrong).to.deep.equal([]);
  });

  it('a module imports another module only through its index.ts', () => {
    const modules = path.join(SERVER, 'modules');
    const moduleOf = (file: string) => {
      const r = path.relative(modules, file);
      return r.startsWith('..') || !r.includes(path.sep) ? undefined : r.split(path.sep)[0];
    };
    const wrong = sources(modules).flatMap((file) => {
      const own = moduleOf(file);
      if (!own) return [];
      return importsOf(file)
        .filter((target) => {
          const other = moduleOf(target);
          return other !== undefined && other !== own && path.relative(path.join(modules, other), target) !== 'index.ts';
        })
        .map((target) => `${rel(file)} → ${rel(target)}`);
    });
    expect(wrong).to.deep.equal([]);
  });

  it('accounts < auth and referralPartners < referralCodes < referralLinks < referralCommissions: no import runs back (issue 33)', () => {
    const modules = path.join(SERVER, 'modules');
    const chains = [
      ['accounts', 'auth'],
      ['referralPartners', 'referralCodes', 'referralLinks', 'referralCommissions'],
    ];
    const wrong = chains.flatMap((chain) =>
      chain.flatMap((earlier, i) =>
        sources(path.join(modules, earlier)).flatMap((file) =>
          importsOf(file)
            .filter((target) => chain.slice(i + 1).some((later) => within(target, `modules/${later}`)))
            .map((target) => `${rel(file)} → ${rel(target)}`),
        ),
      ),
    );
    expect(wrong).to.deep.equal([]);
  });

  it('server/platform has no import circle (issue 33): its files import one way too', () => {
    const files = sources(path.join(SERVER, 'platform'));
    const graph = new Map(files.map((file) => [file, importsOf(file).filter((target) => within(target, 'platform') && fs.existsSync(target))]));
    // A file on a circle reaches itself.
    const reaches = (from: string, to: string): boolean => {
      const seen = new Set<string>();
      const stack = [...(graph.get(from) ?? [])];
      while (stack.length) {
        const next = stack.pop()!;
        if (next === to) return true;
        if (seen.has(next)) continue;
        seen.add(next);
        stack.push(...(graph.get(next) ?? []));
      }
      return false;
    };
    expect(files.filter((file) => reaches(file, file)).map(rel)).to.deep.equal([]);
  });

  it('would catch each kind of wrong arrow', () => {
    const fake = (file: string, spec: string) => path.resolve(path.dirname(path.join(SERVER, file)), spec);
    expect(within(fake('platform/http/x.ts', '../../modules/booking/service.ts'), 'platform')).to.equal(false);
    expect(within(fake('domain/x.ts', '../platform/config.ts'), 'platform')).to.equal(true);
    expect(path.relative(path.join(SERVER, 'modules/booking'), fake('modules/waitlist/claim.ts', '../booking/service.ts'))).to.equal('service.ts');
  });
});
