import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { asSuperuser, type TestServer } from '../../helpers/server.ts';

/** Admin calls as the superuser token. */
export function admin(server: TestServer) {
  const headers = asSuperuser;
  return {
    get: (path: string) => server.request<any>('GET', path, { headers }),
    post: (path: string, body?: unknown, extra: Record<string, string> = {}) => server.request<any>('POST', path, { headers: { ...headers, ...extra }, body }),
    patch: (path: string, body: unknown) => server.request<any>('PATCH', path, { headers, body }),
    delete: (path: string) => server.request<any>('DELETE', path, { headers }),
  };
}

const tag = () => randomUUID().replace(/-/g, '').slice(0, 6);

/** An ACTIVE partner (10% commission unless told), with one guest-discount code and one QR link to /shows. */
export async function program(server: TestServer, overrides: { commissionRule?: { kind: string; value: number }; discount?: number; partner?: Record<string, unknown> } = {}) {
  const t = tag();
  const partner = await admin(server).post('/api/referral-partners/admin', {
    name: `Riverside Hotel ${t}`,
    type: 'HOTEL',
    status: 'ACTIVE',
    publicSlug: `riverside-${t}`,
    contactEmail: `concierge-${t}@riverside.example`,
    commissionRule: overrides.commissionRule ?? { kind: 'PERCENT', value: 10 },
    ...overrides.partner,
  });
  expect(partner.status, JSON.stringify(partner.body)).to.equal(201);
  const code = await admin(server).post('/api/referral-codes', { code: `RIV${t}`, partnerId: partner.body.id, guestDiscountPercent: overrides.discount ?? 10 });
  expect(code.status, JSON.stringify(code.body)).to.equal(201);
  const link = await admin(server).post('/api/referral-links', { partnerId: partner.body.id, codeId: code.body.id, slug: `riv-${t}`, destination: '/shows', channel: 'QR_STICKER', label: 'Lobby' });
  expect(link.status, JSON.stringify(link.body)).to.equal(201);
  return { partner: partner.body, code: code.body, link: link.body };
}

let ip = 0;
export const newAddress = () => ({ 'x-forwarded-for': `198.19.${(++ip >> 8) & 255}.${ip & 255}` });

export const resolve = (server: TestServer, slug: string, body?: unknown) => server.request<any>('POST', `/api/referral-links/resolve/${slug}`, { headers: newAddress(), body });
