import type { Knex } from 'knex';
import { insertEvent, insertOffer, insertShow } from '../catalog/fixtures.ts';

/** A published show with one event `days` ahead (sales open) and one offer for it, written straight into the tables. */
export async function bookableEvent(knex: Knex, overrides: { capacity?: number; days?: number; price?: number; minGuests?: number; maxGuests?: number } = {}) {
  const show = await insertShow(knex);
  const startsAt = new Date(Date.now() + (overrides.days ?? 10) * 86_400_000);
  const event = await insertEvent(knex, show, startsAt, { capacity: overrides.capacity ?? 120 });
  const offer = await insertOffer(knex, show, { pricePerGuestVnd: overrides.price ?? 1_500_000, minGuests: overrides.minGuests ?? 1, maxGuests: overrides.maxGuests ?? 10 });
  return { show, event, offer, startsAt };
}

export const contact = (n = 1) => ({ name: `Guest ${n}`, email: `guest${n}@example.com`, phone: '+84 90 123 4567', locale: 'vi' });
