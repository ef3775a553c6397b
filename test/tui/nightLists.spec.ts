import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { attachmentName } from '../../tui/api/nightLists.ts';
import { SUPERUSER_TOKEN, type TestServer } from '../helpers/server.ts';
import { buildCustomer } from '../modules/customers/factories.ts';
import { buildOffer } from '../modules/offers/factories.ts';
import { buildReservation } from '../modules/reservations/factories.ts';
import { buildEvent } from '../modules/showEvents/factories.ts';
import { buildShow } from '../modules/shows/factories.ts';
import { choose, connectedApp, openSection, useSuperuserServer } from './helpers.ts';

describe('tui: night lists', () => {
  let server: TestServer;
  let directory: string;
  useSuperuserServer((s) => (server = s));
  beforeEach(async () => (directory = await fs.mkdtemp(path.join(os.tmpdir(), 'venue-lists-'))));
  afterEach(() => fs.rm(directory, { recursive: true, force: true }));

  it('lists the scheduled performances and saves a door list (PDF) and a kitchen list (XLSX) under the server’s file names', async () => {
    const show = await buildShow({ status: 'PUBLISHED', title: { en: 'Đêm Sài Gòn' } });
    const event = await buildEvent(show, { startsAt: new Date(Date.now() + 3 * 86_400_000) });
    const offer = await buildOffer({ showId: show.id });
    const customer = await buildCustomer({ name: 'Nguyễn Thị Lan', email: 'lan.tui@example.com' });
    await buildReservation({ eventId: event.id, offerId: offer.id, customerId: customer, createdAt: new Date() });

    const app = await connectedApp(server.baseUrl, SUPERUSER_TOKEN, { downloadDir: directory });
    await openSection(app, 'Night lists');
    await app.waitFor('Đêm Sài Gòn');
    expect(app.frame()).to.include(`Files are saved in ${directory}`);
    await choose(app, 'Đêm Sài Gòn');
    await app.waitFor('Door list (PDF)');
    await choose(app, 'Door list (PDF)');
    const saved = await app.waitFor(/Saved .*\.pdf/);
    const [pdf] = await fs.readdir(directory);
    expect(pdf).to.match(/^Door list - Đêm Sài Gòn \d{4}-\d\d-\d\d \d{4}\.pdf$/);
    expect(saved).to.include('Saved');
    expect((await fs.readFile(path.join(directory, pdf))).subarray(0, 5).toString('latin1')).to.equal('%PDF-');

    await choose(app, 'Kitchen list (XLSX)');
    await app.waitFor(/Saved .*\.xlsx/);
    const files = (await fs.readdir(directory)).sort();
    expect(files).to.have.length(2);
    const xlsx = files.find((file) => file.endsWith('.xlsx'))!;
    expect(xlsx).to.match(/^Kitchen list - Đêm Sài Gòn/);
    // An XLSX is a zip: it starts with PK.
    expect((await fs.readFile(path.join(directory, xlsx))).subarray(0, 2).toString('latin1')).to.equal('PK');
  });

  it('keeps a file name from the header to a bare name inside the folder', () => {
    expect(attachmentName(`attachment; filename="a.pdf"; filename*=UTF-8''..%2F..%2Fetc%2Fpasswd`, 'list.pdf')).to.equal('passwd');
    expect(attachmentName('attachment; filename="..\\\\evil.pdf"', 'list.pdf')).to.equal('evil.pdf');
    expect(attachmentName(`attachment; filename="x.pdf"; filename*=UTF-8''%E0%A4%A`, 'list.pdf')).to.equal('x.pdf');
    expect(attachmentName(null, 'door-list.pdf')).to.equal('door-list.pdf');
    expect(attachmentName(`attachment; filename="Door list - _m S_i G_n.pdf"; filename*=UTF-8''Door%20list%20-%20%C4%90%C3%AAm.pdf`, 'x')).to.equal('Door list - Đêm.pdf');
  });
});
