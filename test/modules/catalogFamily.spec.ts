import { expect } from 'chai';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { importsOf, sources } from '../helpers/sources.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const MODULES = path.join(ROOT, 'server/modules');

/**
 * The catalog family runs one way (issue 33): each of these modules imports only the ones before it (through their
 * index.ts, layering.spec.ts), so no import circle spans two of them. What a later one must learn from an earlier one
 * is a domain event: the catalog's own writes publish `catalog.changed`, which the catalog's record subscribes to.
 * `tables` and `showEvents` import nothing of each other (the floor's zones are server/domain/tableZones.ts), so
 * either may come first. Type-only imports count, as in layering.spec.ts.
 */
const ORDER = ['storage', 'fulfillment', 'shows', 'offers', 'showEvents', 'tables', 'catalog'];

/** The module a file belongs to (undefined for server/modules/index.ts, record.ts and the other files beside the folders). */
const moduleOf = (file: string) => {
  const r = path.relative(MODULES, file);
  return r.startsWith('..') || !r.includes(path.sep) ? undefined : r.split(path.sep)[0];
};

/** Each import from one family module to another that does not come before it: `<file> → <target>`. */
function backwards(order: readonly string[]): string[] {
  return order.flatMap((module, rank) =>
    sources(path.join(MODULES, module)).flatMap((file) =>
      importsOf(file)
        .filter((target) => {
          const other = moduleOf(target);
          return other !== undefined && other !== module && order.includes(other) && order.indexOf(other) > rank;
        })
        .map((target) => `${path.relative(ROOT, file)} → ${path.relative(ROOT, target)}`),
    ),
  );
}

describe('the catalog family’s modules import one way', () => {
  it(`each imports only those before it: ${ORDER.join(' < ')}`, () => {
    expect(backwards(ORDER)).to.deep.equal([]);
  });

  it('tables and show events do not depend on each other (either order holds)', () => {
    const swapped = [...ORDER];
    swapped.splice(ORDER.indexOf('showEvents'), 2, 'tables', 'showEvents');
    expect(backwards(swapped)).to.deep.equal([]);
  });

  it('the module record type imports no module (the booking extensions’ types are server/domain/bookingExtensions.ts)', () => {
    const record = path.join(MODULES, 'record.ts');
    expect(importsOf(record).filter((target) => target.startsWith(MODULES + path.sep)).map((target) => path.relative(ROOT, target))).to.deep.equal([]);
  });

  it('would catch an arrow the wrong way (the family read in the opposite order has some)', () => {
    expect(moduleOf(path.join(MODULES, 'shows/commands/createShow.ts'))).to.equal('shows');
    expect(moduleOf(path.join(MODULES, 'record.ts'))).to.equal(undefined);
    expect(backwards([...ORDER].reverse())).to.include('server/modules/catalog/queries.ts → server/modules/storage/index.ts');
  });
});
