import { expect } from 'chai';
import { paymentsSpec, hold, paidByVnpay } from '../payments/helpers.ts';
import { reservationEventSubject } from '../../../server/modules/booking/events.ts';
import { bookableEvent, contact } from '../booking/factories.ts';
import { admin, newAddress, program, resolve } from '../referralPartners/helpers.ts';

/** Referral links (issue 12): admin CRUD, slugs, destinations, and resolving `/go/{slug}` into a booking's attribution. */
describe('referralLinks: /api/referral-links', () => {
  const spec = paymentsSpec({ config: () => ({ publicSiteUrl: 'https://venue.example' }) });

  it('needs admin: anonymous 401 on the admin routes', async () => {
    expect((await spec.server.request('GET', '/api/referral-links')).status).to.equal(401);
    expect((await spec.server.request('POST', '/api/referral-links', { body: {} })).status).to.equal(401);
    expect((await spec.server.request('PATCH', '/api/referral-links/00000000-0000-4000-8000-000000000000', { body: {} })).status).to.equal(401);
  });

  it('creates, lists and updates links; an explicit duplicate slug is 409 slug_taken, also concurrently; a slug is generated otherwise @db', async () => {
    const { partner, link } = await program(spec.server);
    expect(link).to.include({ destination: '/shows', channel: 'QR_STICKER', status: 'ACTIVE', url: `https://venue.example/go/${link.slug}` });
    const dup = await admin(spec.server).post('/api/referral-links', { partnerId: partner.id, slug: link.slug, channel: 'BAR' });
    expect(dup.status).to.equal(409);
    expect(dup.body.code).to.equal('slug_taken');

    const racing = await Promise.all([1, 2, 3].map(() => admin(spec.server).post('/api/referral-links', { partnerId: partner.id, slug: `${link.slug}-race`, channel: 'BAR' })));
    expect(racing.map((r) => r.status).sort()).to.deep.equal([201, 409, 409]);

    const a = await admin(spec.server).post('/api/referral-links', { partnerId: partner.id, channel: 'SOCIAL' });
    const b = await admin(spec.server).post('/api/referral-links', { partnerId: partner.id, channel: 'SOCIAL' });
    expect(a.status).to.equal(201);
    expect(a.body.slug).to.equal(`${partner.publicSlug}-social`);
    expect(b.body.slug).to.equal(`${partner.publicSlug}-social-2`);
    expect(a.body.destination).to.equal('/');

    const list = await admin(spec.server).get(`/api/referral-links?partnerId=${partner.id}&channel=SOCIAL`);
    expect(list.body.total).to.equal(2);
    expect(list.body.items[0].slug).to.equal(b.body.slug);

    const taken = await admin(spec.server).patch(`/api/referral-links/${a.body.id}`, { slug: link.slug });
    expect(taken.status).to.equal(409);
    const changed = await admin(spec.server).patch(`/api/referral-links/${a.body.id}`, { label: 'Instagram bio', destination: 'https://venue.example/vi/book/saigon-nights-2026-12-05-1930', status: 'PAUSED' });
    expect(changed.status, JSON.stringify(changed.body)).to.equal(200);
    expect(changed.body).to.include({ label: 'Instagram bio', destination: '/vi/book/saigon-nights-2026-12-05-1930', status: 'PAUSED' });
  });

  it('refuses destinations off the public site or outside its routes (422 invalid_destination)', async () => {
    const { partner } = await program(spec.server);
    for (const destination of ['https://evil.example/shows', '//evil.example/shows', '/admin', '/shows?x=1', 'javascript:alert(1)', 'http://venue.example/shows', '/fr/shows']) {
      const res = await admin(spec.server).post('/api/referral-links', { partnerId: partner.id, channel: 'WEBSITE', destination });
      expect(res.status, destination).to.equal(422);
      expect(res.body.code).to.equal('invalid_destination');
    }
    for (const destination of ['/', '/vi', '/en/shows/saigon-nights', '/waitlist', '/partners', '/inquiries', 'https://venue.example/book/x-1']) {
      const res = await admin(spec.server).post('/api/referral-links', { partnerId: partner.id, channel: 'WEBSITE', destination });
      expect(res.status, destination).to.equal(201);
    }
  });

  it('resolves an active link: counts a click (link, hour; nothing personal), answers the localized destination and a signed attribution', async () => {
    const { link, code, partner } = await program(spec.server);
    const res = await resolve(spec.server, link.slug, { locale: 'vi' });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.headers.get('cache-control')).to.equal('no-store');
    expect(res.body.destination).to.equal('https://venue.example/vi/shows');
    expect(res.body.attribution).to.include({ code: code.code, linkSlug: link.slug, partnerSlug: partner.publicSlug });
    expect(res.body.attribution.token).to.match(/^ra1\./);
    await resolve(spec.server, link.slug, { locale: 'xx' }).then((r) => expect(r.body.destination).to.equal('https://venue.example/en/shows'));
    const clicks = await spec.server.db.knex('referral_clicks').where({ link_id: link.id });
    expect(clicks).to.have.length(1);
    expect(clicks[0].click_count).to.equal(2);
    expect(Object.keys(clicks[0]).sort()).to.deep.equal(['bucket', 'click_count', 'link_id']);
  });

  it('404s paused or archived links and partners not active, without recording', async () => {
    const { link, partner } = await program(spec.server);
    await admin(spec.server).patch(`/api/referral-links/${link.id}`, { status: 'PAUSED' });
    expect((await resolve(spec.server, link.slug)).status).to.equal(404);
    await admin(spec.server).patch(`/api/referral-links/${link.id}`, { status: 'ACTIVE' });
    await admin(spec.server).patch(`/api/referral-partners/admin/${partner.id}`, { status: 'SUSPENDED' });
    expect((await resolve(spec.server, link.slug)).status).to.equal(404);
    expect((await resolve(spec.server, 'no-such-link')).status).to.equal(404);
    expect(await spec.server.db.knex('referral_clicks').where({ link_id: link.id })).to.have.length(0);
  });

  it('rate-limits resolutions per address (429)', async () => {
    const { link } = await program(spec.server);
    const headers = newAddress();
    let last = 0;
    for (let i = 0; i < 61; i++) last = (await spec.server.request('POST', `/api/referral-links/resolve/${link.slug}`, { headers })).status;
    expect(last).to.equal(429);
  });

  it('a booking with the attribution token gets the code discount and the partner, link and code; a tampered token is 422', async () => {
    const { link, code, partner } = await program(spec.server, { discount: 10 });
    const { attribution } = (await resolve(spec.server, link.slug)).body;
    const held = await hold(spec.server, { guests: 2, extra: { referral: { code: attribution.code, linkSlug: attribution.linkSlug, partnerSlug: attribution.partnerSlug, attributionToken: attribution.token } } });
    const row = await spec.server.db.knex('reservations').where({ id: held.id }).first();
    expect(row).to.include({ referral_partner_id: partner.id, referral_code_id: code.id, referral_link_id: link.id, referral_code: code.code, subtotal_vnd: 3_000_000, referral_discount_vnd: 300_000, discount_vnd: 300_000 });
    // The business events' referral properties (spec §6.2): code, partner type, channel, discount, has referral.
    const subject = await reservationEventSubject(spec.server.db.knex, held.id, spec.server.config.venueTimezone);
    expect(subject!.properties).to.include({ has_referral: true, referral_code: code.code, referral_partner_type: 'HOTEL', referral_channel: 'QR_STICKER', referral_discount_vnd: 300_000 });
    expect(JSON.stringify(subject!.properties)).not.to.include(attribution.token);

    const [, payload, sig] = attribution.token.split('.');
    const forged = Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(payload, 'base64url').toString()), c: null })).toString('base64url');
    const { event, offer } = await bookableEvent();
    const refused = await spec.server.request<any>('POST', '/api/public/reservations', {
      headers: newAddress(),
      body: { eventSlug: event.slug, offerCode: offer.code, guestCount: 2, contact: contact(5), referral: { attributionToken: `ra1.${forged}.${sig}` } },
    });
    expect(refused.status).to.equal(422);
    expect(refused.body.code).to.equal('invalid_attribution_token');
    expect(await spec.server.db.knex('reservations').where({ show_event_id: event.id })).to.have.length(0);

    // Without a token, an active code of an active partner applies; an archived one is stored but not applied.
    const byCode = await hold(spec.server, { guests: 2, extra: { referral: { code: code.code.toLowerCase() } } });
    expect(await spec.server.db.knex('reservations').where({ id: byCode.id }).first()).to.include({ referral_code_id: code.id, referral_link_id: null, referral_discount_vnd: 300_000 });
    await admin(spec.server).delete(`/api/referral-codes/${code.id}`);
    const archived = await hold(spec.server, { guests: 2, extra: { referral: { code: code.code } } });
    expect(await spec.server.db.knex('reservations').where({ id: archived.id }).first()).to.include({ referral_code_id: null, referral_partner_id: null, referral_discount_vnd: 0, referral_code: code.code });
  });

  it('a paid attributed booking earns one PENDING commission (replayed IPN: still one)', async () => {
    const { link, partner } = await program(spec.server, { commissionRule: { kind: 'PERCENT', value: 10 }, discount: 0 });
    const { attribution } = (await resolve(spec.server, link.slug)).body;
    const { held } = await paidByVnpay(spec, { guests: 2, extra: { referral: { attributionToken: attribution.token } } });
    const rows = await spec.server.db.knex('referral_commissions').where({ partner_id: partner.id });
    expect(rows).to.have.length(1);
    expect(rows[0]).to.include({ reservation_id: held.id, status: 'PENDING', base_vnd: 3_000_000, amount_vnd: 300_000, link_id: link.id });
  });
});
