import { expect } from 'chai';
import { paymentsSpec, paidByVnpay } from '../payments/helpers.ts';
import { admin, program, resolve } from './helpers.ts';
import { catalogCallers, type CatalogCallers } from '../shows/catalog.ts';

/** Referral partners (issue 12): admin CRUD and metrics; the public directory and profile (allow-lists). */
describe('referralPartners: /api/referral-partners', () => {
  const spec = paymentsSpec({ config: () => ({ publicSiteUrl: 'https://venue.example' }) });
  let callers: CatalogCallers;
  before(async () => {
    callers = await catalogCallers();
  });

  it('admin routes: anonymous 401, staff 403; create, get, list, update; a taken public slug is 409 slug_taken', async () => {
    expect((await spec.server.request('GET', '/api/referral-partners/admin')).status).to.equal(401);
    expect((await spec.server.request('GET', '/api/referral-partners/admin', { headers: callers.staff })).status).to.equal(403);
    expect((await spec.server.request('GET', '/api/referral-partners/admin', { headers: callers.admin })).status).to.equal(200);

    const made = await admin(spec.server).post('/api/referral-partners/admin', { name: 'Cà Phê Đường Tàu Bar', type: 'BAR', commissionRule: { kind: 'FIXED_PER_GUEST', value: 50_000 }, notes: 'private' });
    expect(made.status, JSON.stringify(made.body)).to.equal(201);
    expect(made.body).to.include({ status: 'PENDING', publicSlug: 'ca-phe-duong-tau-bar', notes: 'private' });
    expect(made.body.commissionRule).to.deep.equal({ kind: 'FIXED_PER_GUEST', value: 50_000 });
    const again = await admin(spec.server).post('/api/referral-partners/admin', { name: 'Cà Phê Đường Tàu Bar', type: 'BAR', commissionRule: { kind: 'PERCENT', value: 5 } });
    expect(again.body.publicSlug).to.equal('ca-phe-duong-tau-bar-2');
    const taken = await admin(spec.server).post('/api/referral-partners/admin', { name: 'X', type: 'OTHER', publicSlug: 'ca-phe-duong-tau-bar', commissionRule: { kind: 'PERCENT', value: 5 } });
    expect(taken.status).to.equal(409);
    expect(taken.body.code).to.equal('slug_taken');
    expect((await admin(spec.server).patch(`/api/referral-partners/admin/${again.body.id}`, { publicSlug: 'ca-phe-duong-tau-bar' })).status).to.equal(409);

    const got = await admin(spec.server).get(`/api/referral-partners/admin/${made.body.id}`);
    expect(got.body).to.deep.equal(made.body);
    const updated = await admin(spec.server).patch(`/api/referral-partners/admin/${made.body.id}`, { status: 'ACTIVE', externalPlaceId: 'place-1', city: 'Hà Nội' });
    expect(updated.body).to.include({ status: 'ACTIVE', externalPlaceId: 'place-1', city: 'Hà Nội' });
    const list = await admin(spec.server).get('/api/referral-partners/admin?type=BAR&status=ACTIVE');
    expect(list.body.items.map((p: { id: string }) => p.id)).to.include(made.body.id);
    expect((await admin(spec.server).get('/api/referral-partners/admin/00000000-0000-4000-8000-000000000000')).status).to.equal(404);
    expect((await admin(spec.server).post('/api/referral-partners/admin', { name: 'Y', type: 'SPA', commissionRule: { kind: 'PERCENT', value: 5 } })).status).to.equal(400);
  });

  it('metrics: clicks, bookings, guests, revenue and commissions by status', async () => {
    const { partner, link } = await program(spec.server, { discount: 0 });
    const token = (await resolve(spec.server, link.slug)).body.attribution.token;
    await resolve(spec.server, link.slug);
    const { held } = await paidByVnpay(spec, { guests: 3, extra: { referral: { attributionToken: token } } });
    const metrics = await admin(spec.server).get(`/api/referral-partners/admin/${partner.id}/metrics`);
    expect(metrics.status).to.equal(200);
    expect(metrics.body).to.deep.equal({
      partnerId: partner.id,
      clicks: 2,
      bookings: 1,
      guests: 3,
      revenueVnd: held.totalVnd,
      commissions: { PENDING: 450_000, APPROVED: 0, PAID: 0, VOID: 0 },
    });
  });

  it('public directory and profile: active partners only, allow-listed fields, earning rules in the guest locale', async () => {
    const { partner, code, link } = await program(spec.server, { discount: 10, commissionRule: { kind: 'PERCENT', value: 12 } });
    const pending = await admin(spec.server).post('/api/referral-partners/admin', { name: 'Pending Tours', type: 'TOUR_COMPANY', commissionRule: { kind: 'PERCENT', value: 5 } });

    const dir = await spec.server.request<any>('GET', '/api/referral-partners/directory');
    expect(dir.status).to.equal(200);
    const entry = dir.body.items.find((e: { publicSlug: string }) => e.publicSlug === partner.publicSlug);
    expect(entry).to.deep.include({ name: partner.name, type: 'HOTEL', guestDiscount: true, channels: ['QR_STICKER'] });
    expect(entry.codes).to.deep.equal([{ code: code.code, guestDiscount: true, guestDiscountPercent: 10 }]);
    expect(dir.body.items.some((e: { publicSlug: string }) => e.publicSlug === pending.body.publicSlug)).to.equal(false);

    const en = await spec.server.request<any>('GET', `/api/referral-partners/${partner.publicSlug}/profile`);
    expect(en.status).to.equal(200);
    expect(en.body.earningRules).to.deep.equal(['12% of every paid booking', `Guests using code ${code.code} get 10% off`]);
    expect(en.body.links).to.deep.equal([{ slug: link.slug, channel: 'QR_STICKER', label: 'Lobby', url: `https://venue.example/go/${link.slug}` }]);
    expect(en.body.stats).to.deep.equal({ bookings: 0, guests: 0 });
    const vi = await spec.server.request<any>('GET', `/api/referral-partners/${partner.publicSlug}/profile?locale=vi`);
    expect(vi.body.locale).to.equal('vi');
    expect(vi.body.earningRules[0]).to.equal('12% trên mỗi đặt chỗ đã thanh toán');
    expect((await spec.server.request('GET', `/api/referral-partners/${pending.body.publicSlug}/profile`)).status).to.equal(404);
    expect((await spec.server.request('GET', '/api/referral-partners/no-such-partner/profile')).status).to.equal(404);
  });

  it('the profile’s description is in the guest’s locale when the partner wrote one, and says which locale it is in (issue 34 §2)', async () => {
    const made = await admin(spec.server).post('/api/referral-partners/admin', {
      name: 'Lantern Guesthouse',
      type: 'HOTEL',
      status: 'ACTIVE',
      description: 'A guesthouse in the old quarter.',
      descriptionTranslations: { vi: 'Nhà nghỉ trong khu phố cổ.' },
      commissionRule: { kind: 'PERCENT', value: 5 },
    });
    expect(made.status, JSON.stringify(made.body)).to.equal(201);
    expect(made.body.descriptionTranslations).to.deep.equal({ vi: 'Nhà nghỉ trong khu phố cổ.' });
    const profile = (query: string) => spec.server.request<any>('GET', `/api/referral-partners/${made.body.publicSlug}/profile${query}`);

    for (const query of ['?locale=vi', '?locale=vi-VN', '?locale=VI']) {
      const vi = await profile(query);
      expect(vi.body, query).to.include({ description: 'Nhà nghỉ trong khu phố cổ.', descriptionLocale: 'vi', locale: 'vi' });
      expect(vi.headers.get('content-language')).to.equal('vi');
    }
    for (const query of ['', '?locale=en', '?locale=fr']) {
      const en = await profile(query);
      expect(en.body, query).to.include({ description: 'A guesthouse in the old quarter.', descriptionLocale: 'en', locale: 'en' });
      expect(en.headers.get('content-language')).to.equal('en');
    }

    // No Vietnamese text: the English one, and the answer says so; no description at all: null, no header.
    await admin(spec.server).patch(`/api/referral-partners/admin/${made.body.id}`, { descriptionTranslations: { vi: '  ' } });
    expect((await profile('?locale=vi')).body).to.include({ description: 'A guesthouse in the old quarter.', descriptionLocale: 'en', locale: 'vi' });
    // Only a Vietnamese text: an English reader gets it, marked vi.
    await admin(spec.server).patch(`/api/referral-partners/admin/${made.body.id}`, { description: null, descriptionTranslations: { vi: 'Chỉ có tiếng Việt.' } });
    expect((await profile('?locale=en')).body).to.include({ description: 'Chỉ có tiếng Việt.', descriptionLocale: 'vi' });
    await admin(spec.server).patch(`/api/referral-partners/admin/${made.body.id}`, { descriptionTranslations: {} });
    const none = await profile('?locale=vi');
    expect(none.body).to.include({ description: null, descriptionLocale: null });
    expect(none.headers.get('content-language')).to.equal(null);

    // A translation must be in one of the site's other locales: 422 unknown_locale on the field, nothing written.
    for (const [translations, path] of [
      [{ fr: 'Une maison.' }, 'body/descriptionTranslations/fr'],
      [{ en: 'The default locale is description.' }, 'body/descriptionTranslations/en'],
    ] as const) {
      const refused = await admin(spec.server).patch(`/api/referral-partners/admin/${made.body.id}`, { descriptionTranslations: translations, city: 'Huế' });
      expect(refused.status).to.equal(422);
      expect(refused.body.code).to.equal('unknown_locale');
      expect(refused.body.errors[0].path).to.equal(path);
    }
    expect((await admin(spec.server).get(`/api/referral-partners/admin/${made.body.id}`)).body).to.include({ city: null });
  });

  it('PII scan: the public pages never show ids, notes, commission values, payout details or external place ids', async () => {
    const secrets = { notes: 'SECRET-NOTE-7731', payoutDetails: 'SECRET-IBAN-99812', externalPlaceId: 'SECRET-PLACE-4410' };
    const { partner, code, link } = await program(spec.server, { commissionRule: { kind: 'FIXED_PER_GUEST', value: 987_654 }, partner: secrets });
    const archived = await admin(spec.server).post('/api/referral-codes', { code: `ARCH${partner.publicSlug.slice(-6)}`, partnerId: partner.id });
    await admin(spec.server).delete(`/api/referral-codes/${archived.body.id}`);
    const texts = [
      (await spec.server.request('GET', '/api/referral-partners/directory')).text,
      (await spec.server.request('GET', `/api/referral-partners/${partner.publicSlug}/profile`)).text,
      (await spec.server.request('GET', `/api/referral-partners/${partner.publicSlug}/profile?locale=vi`)).text,
    ];
    for (const text of texts) {
      for (const secret of [...Object.values(secrets), partner.id, code.id, link.id, '987654', archived.body.code]) expect(text).not.to.include(secret);
      expect(text).not.to.match(/"(id|notes|payoutDetails|externalPlaceId|commissionRule|partnerId)"/);
    }
    expect(texts[0]).to.include(partner.name);
    // The directory shows no commission at all; the profile words the rule as its earning rules (issue 12).
    expect(texts[0]).not.to.include('987');
    expect(texts[1]).to.include('987,654 VND per guest of every paid booking');
  });
});
