import { expect } from 'chai';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { importsOf, sources } from '../helpers/sources.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const SERVER = path.join(ROOT, 'server');

/**
 * The layers point down (DESIGN.md "Layout"; issue 22 item 6): `server/platform/` knows no venue and imports
 * neither `domain/` nor `modules/`; `server/domain/` (venue rules several modules share) imports `platform/`
 * only; a module reaches another module only through that module's `index.ts`. Type-only imports count too: a
 * type is a dependency a reader has to follow.
 */
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

  /** A module's folder name, for a file under server/modules/<tag>/ (undefined for the files beside the folders). */
  const moduleOf = (file: string) => {
    const r = path.relative(path.join(SERVER, 'modules'), file);
    return r.startsWith('..') || !r.includes(path.sep) ? undefined : r.split(path.sep)[0];
  };
  const moduleFolders = () =>
    fs.readdirSync(path.join(SERVER, 'modules'), { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => d.name).sort();

  /** The declared order (docs/architecture.md, the `module-order` block): each module imports only modules before it. */
  function declaredOrder(): string[] {
    const doc = fs.readFileSync(path.join(ROOT, 'docs/architecture.md'), 'utf8');
    const block = /```module-order\n([\s\S]*?)```/.exec(doc)?.[1];
    if (!block) throw new Error('docs/architecture.md has no ```module-order block');
    return block.split(/[<\s]+/).filter(Boolean);
  }

  it('two doors: a module\'s module.ts (its record) is imported by server/modules/index.ts only; its index.ts imports no handler, record or operation command (issue 33)', () => {
    const operations = new Set(
      [...fs.readFileSync(path.join(ROOT, 'openapi.yaml'), 'utf8').matchAll(/^\s+operationId: (\w+)$/gm)].map((m) => m[1]),
    );
    const aggregator = path.join(SERVER, 'modules', 'index.ts');
    const wrong: string[] = [];
    for (const file of sources(SERVER)) {
      for (const target of importsOf(file)) {
        const tag = moduleOf(target);
        if (tag && path.relative(path.join(SERVER, 'modules', tag), target) === 'module.ts' && file !== aggregator) wrong.push(`${rel(file)} → ${rel(target)} (a record)`);
      }
    }
    for (const tag of moduleFolders()) {
      const door = path.join(SERVER, 'modules', tag, 'index.ts');
      if (!fs.existsSync(door)) continue;
      for (const target of importsOf(door)) {
        const inside = path.relative(path.join(SERVER, 'modules', tag), target);
        const command = /^commands[\\/](\w+)\.ts$/.exec(inside)?.[1];
        if (inside === 'handlers.ts' || inside === 'module.ts' || (command && operations.has(command))) wrong.push(`${rel(door)} → ${rel(target)}`);
      }
    }
    expect(wrong).to.deep.equal([]);
  });

  it('the modules import one way, in the order docs/architecture.md declares: no circle, no import back up (issue 33)', () => {
    const order = declaredOrder();
    expect([...order].sort(), 'the module-order block names every module folder once').to.deep.equal(moduleFolders());
    const rank = new Map(order.map((tag, i) => [tag, i]));
    const wrong = sources(path.join(SERVER, 'modules')).flatMap((file) => {
      const own = moduleOf(file);
      if (!own) return [];
      return importsOf(file)
        .filter((target) => {
          const other = moduleOf(target);
          return other !== undefined && other !== own && rank.get(other)! > rank.get(own)!;
        })
        .map((target) => `${rel(file)} → ${rel(target)} (${own} is before ${moduleOf(target)})`);
    });
    expect(wrong).to.deep.equal([]);
  });

  it('no import circle in server/ spans more than one module (a circle inside one module\'s files is its own business)', () => {
    const files = sources(SERVER);
    const graph = new Map(files.map((file) => [file, importsOf(file).filter((target) => target.startsWith(SERVER + path.sep) && fs.existsSync(target))]));
    // Tarjan's strongly connected components.
    let next = 0;
    const index = new Map<string, number>();
    const low = new Map<string, number>();
    const stack: string[] = [];
    const onStack = new Set<string>();
    const circles: string[][] = [];
    const visit = (v: string) => {
      index.set(v, next);
      low.set(v, next++);
      stack.push(v);
      onStack.add(v);
      for (const w of graph.get(v) ?? []) {
        if (!index.has(w)) {
          visit(w);
          low.set(v, Math.min(low.get(v)!, low.get(w)!));
        } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
      }
      if (low.get(v) === index.get(v)) {
        const circle: string[] = [];
        let w: string;
        do {
          w = stack.pop()!;
          onStack.delete(w);
          circle.push(w);
        } while (w !== v);
        if (circle.length > 1) circles.push(circle);
      }
    };
    for (const file of files) if (!index.has(file)) visit(file);
    const owner = (file: string) => moduleOf(file) ?? path.relative(SERVER, file).split(path.sep)[0];
    const spanning = circles.filter((circle) => new Set(circle.map(owner)).size > 1).map((circle) => circle.map(rel).sort().join(', '));
    expect(spanning).to.deep.equal([]);
  });

  it('would catch each kind of wrong arrow', () => {
    const fake = (file: string, spec: string) => path.resolve(path.dirname(path.join(SERVER, file)), spec);
    expect(within(fake('platform/http/x.ts', '../../modules/booking/service.ts'), 'platform')).to.equal(false);
    expect(within(fake('domain/x.ts', '../platform/config.ts'), 'platform')).to.equal(true);
    expect(path.relative(path.join(SERVER, 'modules/booking'), fake('modules/waitlist/claim.ts', '../booking/service.ts'))).to.equal('service.ts');
  });
});
