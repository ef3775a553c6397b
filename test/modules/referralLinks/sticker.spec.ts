import { expect } from 'chai';
import QRCode from 'qrcode';
import { asSuperuser, startTestServer, type TestServer } from '../../helpers/server.ts';
import { pngDimensions } from '../../../server/modules/referralLinks/sticker.ts';
import { admin, program } from '../referralPartners/helpers.ts';

/** Referral link stickers (a checked PNG stored as a public blob) and QR codes (issue 12). */
describe('referralLinks: stickers and QR codes', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer({ config: { publicSiteUrl: 'https://venue.example', publicApiUrl: 'https://api.venue.example' } });
  });
  after(() => server.close());

  const png = (width = 240) => QRCode.toBuffer('https://venue.example/go/x', { type: 'png', width, margin: 2 });
  const upload = (id: string, body: Buffer, contentType = 'image/png', headers: Record<string, string> = asSuperuser) =>
    server.request<any>('POST', `/api/referral-links/${id}/sticker`, { headers: { ...headers, 'content-type': contentType }, rawBody: body });

  it('stores a raw PNG as a public sticker blob and attaches its asset URL; the asset is served', async () => {
    const { link } = await program(server);
    expect((await upload(link.id, await png(), 'image/png', {})).status).to.equal(401);
    const res = await upload(link.id, await png());
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body.stickerUrl).to.match(/^https:\/\/api\.venue\.example\/api\/public\/assets\?key=sticker%2F/);
    const row = await server.db.knex('referral_links').where({ id: link.id }).first();
    const blob = await server.db.knex('storage_blobs').where({ id: row.sticker_blob_id }).first();
    expect(blob).to.include({ purpose: 'sticker', content_type: 'image/png' });
    const asset = await server.request('GET', new URL(res.body.stickerUrl).pathname + new URL(res.body.stickerUrl).search);
    expect(asset.status).to.equal(200);
    expect(asset.bytes.equals(await png())).to.equal(true);
    expect((await admin(server).get(`/api/referral-links?partnerId=${link.partnerId}`)).body.items[0].stickerUrl).to.equal(res.body.stickerUrl);
  });

  it('takes a multipart file too', async () => {
    const { link } = await program(server);
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(await png(128))], { type: 'image/png' }), 'sticker.png');
    const res = await server.request<any>('POST', `/api/referral-links/${link.id}/sticker`, { headers: asSuperuser, rawBody: form });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body.stickerUrl).to.be.a('string');
  });

  it('refuses what is not a PNG (400), a PNG outside 64–4096 px (422), other types (415), and unknown links (404)', async () => {
    const { link } = await program(server);
    const notPng = Buffer.alloc(200, 7);
    const bad = await upload(link.id, notPng);
    expect(bad.status).to.equal(400);
    expect(bad.body.code).to.be.oneOf(['file_type_mismatch', 'invalid_png']); // the body parser's magic-byte check comes first
    const noIhdr = Buffer.concat([(await png()).subarray(0, 8), Buffer.alloc(100)]);
    expect((await upload(link.id, noIhdr)).status).to.equal(400);
    expect(() => pngDimensions(noIhdr)).to.throw().with.property('code', 'invalid_png');
    expect(() => pngDimensions(notPng)).to.throw().with.property('code', 'invalid_png');
    expect(pngDimensions(await png(128))).to.deep.equal({ width: 128, height: 128 });
    const huge = Buffer.from(await png());
    huge.writeUInt32BE(5000, 16);
    const tooWide = await upload(link.id, huge);
    expect(tooWide.status).to.equal(422);
    expect(tooWide.body.code).to.equal('sticker_dimensions');
    const tiny = Buffer.from(await png());
    tiny.writeUInt32BE(20, 20);
    expect((await upload(link.id, tiny)).status).to.equal(422);
    expect((await upload(link.id, await png(), 'image/jpeg')).status).to.equal(415);
    expect((await upload('00000000-0000-4000-8000-000000000000', await png())).status).to.equal(404);
    expect((await server.db.knex('referral_links').where({ id: link.id }).first()).sticker_url).to.equal(null);
  });

  it('GET /api/referral-links/{id}/qr.svg: the /go/{slug} URL as an SVG QR code', async () => {
    const { link } = await program(server);
    const res = await server.request('GET', `/api/referral-links/${link.id}/qr.svg`, { headers: asSuperuser });
    expect(res.status).to.equal(200);
    expect(res.headers.get('content-type')).to.match(/^image\/svg\+xml/);
    expect(res.text).to.match(/^<svg[^>]*xmlns="http:\/\/www.w3.org\/2000\/svg"/);
    expect(res.text).to.equal(await QRCode.toString(`https://venue.example/go/${link.slug}`, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 }));
    expect((await server.request('GET', `/api/referral-links/${link.id}/qr.svg`)).status).to.equal(401);
    expect((await server.request('GET', '/api/referral-links/00000000-0000-4000-8000-000000000000/qr.svg', { headers: asSuperuser })).status).to.equal(404);
  });
});
