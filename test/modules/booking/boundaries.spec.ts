import { expect } from 'chai';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { importsOf, sources } from '../../helpers/sources.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const MODULES = path.join(ROOT, 'server/modules');

/**
 * Issue 33: booking (with reservations, its staff face) sits before the modules that follow its reservations
 * (payments, e-mail, check-ins…). What they do when a reservation changes is their subscriber of booking's domain
 * events (the confirmation e-mail of `reservation.confirmed`; a cancelled show event's of `reservation.cancelled`), and booking's table is written by
 * booking alone: a module after it asks booking through its index.ts (`markCheckedIn`). Type-only and dynamic
 * imports count as imports.
 */

/** Statements that write the `reservations` table: knex's builder on it, or the `Reservation` model's writes. */
const WRITES_RESERVATIONS = /\(\s*['"]reservations(?: as \w+)?['"]\s*\)[^;]*?\.(?:update|insert|del|delete|upsert|merge)\(|\bReservation\.query\([^)]*\)[^;]*?\.(?:patch|update|insert|insertAndFetch|patchAndFetchById|delete|deleteById)\(/;

describe('booking: what it imports and who writes its table (issue 33)', () => {
  it('no file of booking or its staff face (reservations) imports the e-mail module: the guest’s messages are e-mail’s subscribers', () => {
    const wrong = ['booking', 'reservations'].flatMap((module) => sources(path.join(MODULES, module))).flatMap((file) =>
      importsOf(file)
        .filter((target) => !path.relative(path.join(MODULES, 'email'), target).startsWith('..'))
        .map((target) => `${path.relative(ROOT, file)} → ${path.relative(ROOT, target)}`),
    );
    expect(wrong).to.deep.equal([]);
  });

  it('only booking and its staff face (reservations) write the reservations table: a check-in is booking’s markCheckedIn', () => {
    const owners = new Set(['booking', 'reservations']);
    const wrong = sources(MODULES).filter((file) => {
      const module = path.relative(MODULES, file).split(path.sep)[0];
      return !owners.has(module) && WRITES_RESERVATIONS.test(fs.readFileSync(file, 'utf8'));
    });
    expect(wrong.map((file) => path.relative(ROOT, file))).to.deep.equal([]);
  });

  it('would catch each kind of write', () => {
    expect(WRITES_RESERVATIONS.test("await trx('reservations').where({ id }).update({ status: 'CHECKED_IN' })")).to.equal(true);
    expect(WRITES_RESERVATIONS.test("await knex('reservations as r')\n  .where('r.id', id)\n  .del()")).to.equal(true);
    expect(WRITES_RESERVATIONS.test('await Reservation.query(trx).findById(id).patch({ status })')).to.equal(true);
    expect(WRITES_RESERVATIONS.test("await trx('reservations').where({ id }).first('status')")).to.equal(false);
  });
});
