import { expect } from 'chai';
import type { TestServer } from '../../helpers/server.ts';
import { contact } from '../booking/factories.ts';

/** Each public request its own client address (TRUST_PROXY), so the per-address rate limits stay out of the way. */
let ipCounter = 0;
export const fromNewAddress = () => ({ 'x-forwarded-for': `10.${(++ipCounter >> 16) & 255}.${(ipCounter >> 8) & 255}.${ipCounter & 255}` });

/** A guest's hold through the public route; answers the reservation's id. */
export async function guestHold(server: TestServer, event: { slug: string | null }, offer: { code: string }, guests = 2, who = contact(1)): Promise<string> {
  const res = await server.request<any>('POST', '/api/public/reservations', {
    headers: fromNewAddress(),
    body: { eventSlug: event.slug, offerCode: offer.code, guestCount: guests, contact: who },
  });
  expect(res.status, JSON.stringify(res.body)).to.equal(201);
  return (await server.db.knex('reservations').where({ reference: res.body.reference }).first('id')).id;
}
