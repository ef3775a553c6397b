import { expect } from 'chai';
import ExcelJS from 'exceljs';
import { buildCustomer } from '../customers/factories.ts';
import { buildFulfillmentItem } from '../fulfillment/factories.ts';
import { buildInquiry } from '../inquiries/factories.ts';
import { buildOffer } from '../offers/factories.ts';
import { buildPayment } from '../payments/factories.ts';
import { buildGuestProfile } from '../profiles/factories.ts';
import { buildReservation } from '../reservations/factories.ts';
import { buildEvent } from '../showEvents/factories.ts';
import { apiKeyWith, catalogSpec, MISSING_ID } from '../shows/catalog.ts';
import { buildShow } from '../shows/factories.ts';
import { buildTable } from '../tables/factories.ts';
import { buildWaitlistEntry } from '../waitlist/factories.ts';
import { csvRecords, hasPdftotext, pdfText, savedName, sheetRows, workbookOf } from './helpers.ts';

/**
 * Exports (issue 36 §2): the venue's lists as CSV and XLSX and a performance's door and kitchen lists as PDF and
 * XLSX, read back as their readers would — csv-parse (the BOM, Vietnamese intact), exceljs (typed cells: dates at
 * the venue's wall-clock time, VND as integers with a currency format), pdftotext (diacritics intact) — with the
 * owners' list filters, the access of the underlying reads, and their Content-Disposition.
 */
describe('exports: lists as CSV and XLSX, the night lists as PDF and XLSX @db', () => {
  const spec = catalogSpec();
  const as = spec.as;
  const knex = () => spec.server.db.knex;

  // The performance: 19:30 in Saigon (12:30 UTC), doors 18:30.
  const STARTS = new Date('2027-03-05T12:30:00Z');
  const fixture = {} as {
    eventId: string;
    otherEventId: string;
    references: Record<'lan' | 'duc' | 'formula' | 'cancelled' | 'expired' | 'other', string>;
  };

  before(async () => {
    const show = await buildShow({ status: 'PUBLISHED', title: { en: 'Saigon Nights', vi: 'Đêm Sài Gòn' } });
    const event = await buildEvent(show, { startsAt: STARTS, doorsMinutes: 60, capacity: 120 });
    const other = await buildEvent(show, { startsAt: new Date('2027-03-06T12:30:00Z'), capacity: 120 });
    const beef = await buildFulfillmentItem({ code: 'BEEF', name: { en: 'Shaking beef', vi: 'Bò lúc lắc' } });
    const juice = await buildFulfillmentItem({ code: 'JUICE', kind: 'DRINK', name: { en: 'Sugarcane juice', vi: 'Nước mía' }, dietaryTags: ['VEGAN'] });
    const offer = await buildOffer({ showId: show.id, code: 'DINNER-VN', name: { en: 'Dinner and show', vi: 'Ăn tối và xem diễn' }, items: [{ id: beef.id }, { id: juice.id, quantity: 2 }] });
    const vip = await buildTable({ code: 'A1', zone: 'VIP', seats: 4, sortOrder: 1 });
    const main = await buildTable({ code: 'B2', zone: 'MAIN', seats: 6, sortOrder: 2 });

    const lan = await buildCustomer({ name: 'Nguyễn Thị Lan', email: 'lan.export@example.com', phone: '+84 90 111 2222' });
    const duc = await buildCustomer({ name: 'Trần Văn Đức', email: 'duc.export@example.com' });
    const formula = await buildCustomer({ name: '=HYPERLINK("http://evil.example","x")', email: 'formula.export@example.com' });
    await buildCustomer({ name: 'Phạm Đã Xoá', email: 'deleted.export@example.com', deleted: true });

    const at = (minutes: number) => new Date(Date.UTC(2027, 1, 1, 3, 0) + minutes * 60_000);
    const reserve = (customerId: string, status: Parameters<typeof buildReservation>[0]['status'], guests: number, minutes: number, eventId = event.id) =>
      buildReservation({ eventId, offerId: offer.id, customerId, status, guests, createdAt: at(minutes) });
    const r = {
      lan: await reserve(lan, 'CONFIRMED', 4, 1),
      duc: await reserve(duc, 'CHECKED_IN', 2, 2),
      formula: await reserve(formula, 'CONFIRMED', 1, 3),
      cancelled: await reserve(lan, 'CANCELLED', 2, 4),
      expired: await reserve(duc, 'HELD', 2, 5),
      other: await reserve(lan, 'CONFIRMED', 3, 6, other.id),
    };
    await knex()('reservations').where({ id: r.lan.id }).update({ table_id: vip.id, customer_note: 'Kỷ niệm ngày cưới', staff_notes: 'Bánh kem lúc 21:00' });
    await knex()('reservations').where({ id: r.duc.id }).update({ table_id: main.id, checked_in_at: new Date('2027-03-05T12:07:00Z') });
    await knex()('reservations').where({ id: r.expired.id }).update({ hold_expires_at: new Date(Date.now() - 60_000) });

    // Lan paid half (VNPay, on VNPay's 4 March); Đức paid all in cash; the formula guest nothing.
    const paidLan = await buildPayment(r.lan.id, { amount: 2_000_000, txnRef: 'VNP-LAN-1' });
    await knex()('payments').where({ id: paidLan }).update({ gateway_transaction_id: '14123456', bank_code: 'NCB', gateway_paid_at: new Date('2027-03-04T16:30:00Z') });
    const paidDuc = await buildPayment(r.duc.id, { amount: 2_000_000, gateway: 'CASH', txnRef: 'CASH-DUC-1', refunds: [{ amount: 500_000, reason: 'Hoàn tiền một phần' }] });
    await knex()('payments').where({ id: paidDuc }).update({ succeeded_at: new Date('2027-03-05T11:00:00Z') });
    await knex()('refunds').where({ payment_id: paidDuc }).update({ completed_at: new Date('2027-03-05T17:30:00Z') });
    await knex()('reservations').where({ id: r.duc.id }).update({ total_vnd: 2_500_000 });

    await buildGuestProfile(r.lan.id, { displayName: 'Lan', dietaryPreferences: ['VEGETARIAN', 'NUT_ALLERGY'], dietaryNote: 'Không đậu phộng' });
    await buildGuestProfile(r.lan.id, { displayName: 'Minh', dietaryPreferences: [] });
    await buildGuestProfile(r.duc.id, { displayName: 'Đức', dietaryPreferences: ['NO_PORK'] });
    await buildGuestProfile(r.duc.id, { displayName: 'Gone', dietaryPreferences: ['HALAL'], deleted: true });

    await buildWaitlistEntry(event.id, { name: 'Lê Hoàng Yến', email: 'yen@example.com', guests: 3, note: 'Cần ghế trẻ em', createdAt: at(10) });
    await buildWaitlistEntry(other.id, { name: 'Other Event', email: 'other@example.com', createdAt: at(11) });
    await buildInquiry({ name: 'Công ty Ánh Dương', email: 'events@anhduong.example', type: 'CORPORATE', message: 'Tiệc cuối năm cho 80 người', preferredDate: '2027-12-20', guests: 80, createdAt: at(20) });
    await buildInquiry({ name: 'Archived One', email: 'old@example.com', message: 'old', status: 'ARCHIVED', createdAt: at(21) });

    fixture.eventId = event.id;
    fixture.otherEventId = other.id;
    fixture.references = Object.fromEntries(Object.entries(r).map(([key, value]) => [key, value.reference])) as typeof fixture.references;
  });

  const staff = () => as(spec.callers.staff);
  const admin = () => as(spec.callers.admin);

  describe('access: as the underlying reads', () => {
    const everyExport = () => [
      '/api/exports/reservations',
      '/api/exports/payments',
      '/api/exports/refunds',
      '/api/exports/customers',
      '/api/exports/waitlist',
      '/api/exports/inquiries',
      `/api/exports/show-events/${fixture.eventId}/door-list`,
      `/api/exports/show-events/${fixture.eventId}/kitchen-list`,
    ];

    it('refuses anonymous callers (401) on every export', async () => {
      for (const path of everyExport()) {
        const res = await as({}).get(path);
        expect(res.status, path).to.equal(401);
        expect(res.body.code).to.equal('unauthenticated');
      }
    });

    it('gives staff the lists and the night lists; money and customers only to admins (403 for staff)', async () => {
      for (const path of ['/api/exports/reservations', '/api/exports/waitlist', '/api/exports/inquiries', `/api/exports/show-events/${fixture.eventId}/door-list`, `/api/exports/show-events/${fixture.eventId}/kitchen-list`]) {
        expect((await staff().get(path)).status, path).to.equal(200);
      }
      for (const path of ['/api/exports/payments', '/api/exports/refunds', '/api/exports/customers']) {
        const refused = await staff().get(path);
        expect(refused.status, path).to.equal(403);
        expect(refused.body.code).to.equal('insufficient_role');
        expect((await admin().get(path)).status, path).to.equal(200);
      }
    });

    it('admits API keys by the underlying read permission; the whole CRM needs customers:export', async () => {
      expect((await as(await apiKeyWith('reservations:read')).get('/api/exports/reservations')).status).to.equal(200);
      expect((await as(await apiKeyWith('payments:read')).get('/api/exports/refunds')).status).to.equal(200);
      const reader = await as(await apiKeyWith('customers:read')).get('/api/exports/customers');
      expect(reader.status).to.equal(403);
      expect(reader.body.code).to.equal('missing_permission');
      expect((await as(await apiKeyWith('customers:export')).get('/api/exports/customers')).status).to.equal(200);
      const kitchen = await as(await apiKeyWith('reservations:read')).get(`/api/exports/show-events/${fixture.eventId}/kitchen-list`);
      expect(kitchen.body.code).to.equal('missing_permission');
    });

    it('400 for a bad filter or format, 422 for a date that is no calendar date or a range backwards, 404 for an unknown performance', async () => {
      for (const path of ['/api/exports/reservations?format=pdf', '/api/exports/reservations?status=LOST', '/api/exports/reservations?eventId=nope', '/api/exports/payments?from=05-03-2027', `/api/exports/show-events/${fixture.eventId}/door-list?format=csv`, `/api/exports/show-events/${fixture.eventId}/door-list?groupBy=zone`, '/api/exports/show-events/nope/door-list']) {
        const res = await admin().get(path);
        expect(res.status, path).to.equal(400);
        expect(res.body.code).to.equal('validation_failed');
      }
      // A day no calendar has is refused by the contract's `format: date` already, as the list refuses it.
      for (const path of ['/api/exports/reservations?date=2027-02-30', '/api/exports/refunds?from=2027-02-29']) {
        const res = await admin().get(path);
        expect(res.status, path).to.equal(400);
        expect(res.body.errors[0].code).to.equal('format');
      }
      const backwards = await admin().get('/api/exports/payments?from=2027-03-05&to=2027-03-04');
      expect(backwards.status).to.equal(422);
      expect(backwards.body).to.deep.include({ code: 'invalid_date_range' });
      expect(backwards.body.errors[0].path).to.equal('query/to');
      for (const kind of ['door-list', 'kitchen-list']) expect((await staff().get(`/api/exports/show-events/${MISSING_ID}/${kind}`)).status).to.equal(404);
    });
  });

  describe('reservations', () => {
    it('CSV: UTF-8 with a BOM, Vietnamese intact, every filtered row, status as read, money as whole numbers, formulas defused', async () => {
      const res = await staff().get(`/api/exports/reservations?eventId=${fixture.eventId}&sort=eventTime`);
      expect(res.headers.get('cache-control')).to.equal('no-store');
      expect(savedName(res)).to.match(/^reservations-\d{4}-\d\d-\d\d\.csv$/);
      const records = csvRecords(res);
      const { references } = fixture;
      expect(records.map((row) => row.Reference).sort()).to.deep.equal([references.lan, references.duc, references.formula, references.cancelled, references.expired].sort());
      const lan = records.find((row) => row.Reference === references.lan)!;
      expect(lan).to.include({
        Status: 'CONFIRMED',
        'Event starts': '2027-03-05 19:30:00',
        Show: 'Saigon Nights',
        Offer: 'DINNER-VN',
        Guests: '4',
        Table: 'A1',
        Customer: 'Nguyễn Thị Lan',
        'Customer phone': "'+84 90 111 2222",
        'Total (VND)': '4000000',
        'Paid (VND)': '2000000',
        'Balance (VND)': '2000000',
        'Guest note': 'Kỷ niệm ngày cưới',
      });
      expect(records.find((row) => row.Reference === references.expired)!.Status).to.equal('EXPIRED');
      expect(records.find((row) => row.Reference === references.duc)!['Paid (VND)']).to.equal('1500000');
      // A name that is a formula stays text: the spreadsheet shows it, never runs it.
      expect(records.find((row) => row.Reference === references.formula)!.Customer).to.equal(`'=HYPERLINK("http://evil.example","x")`);
      expect(res.text.toLowerCase()).not.to.match(/token|hash|analytics/);
    });

    it('takes the list operation’s filters: the same rows as GET /api/reservations for each', async () => {
      for (const query of [`eventId=${fixture.eventId}&status=EXPIRED`, 'status=CONFIRMED', 'q=nguy', 'date=2027-03-06', `q=${fixture.references.duc}`]) {
        const listed = (await staff().get(`/api/reservations?${query}&limit=100`)).body.items.map((item: { reference: string }) => item.reference);
        const exported = csvRecords(await staff().get(`/api/exports/reservations?${query}`)).map((row) => row.Reference);
        expect(exported, query).to.deep.equal(listed);
        expect(exported.length, query).to.be.greaterThan(0);
      }
    });

    it('XLSX: typed cells — the event’s start a date at the venue’s 19:30, VND integers with a ₫ format, text intact', async () => {
      const res = await staff().get(`/api/exports/reservations?format=xlsx&eventId=${fixture.eventId}`);
      expect(savedName(res)).to.match(/^reservations-\d{4}-\d\d-\d\d\.xlsx$/);
      const workbook = await workbookOf(res);
      const sheet = workbook.getWorksheet('Reservations')!;
      expect(sheet.getRow(1).getCell(1).font?.bold).to.equal(true);
      const lan = sheetRows(sheet).find((row) => row.Reference.value === fixture.references.lan)!;
      expect(lan['Event starts'].type).to.equal(ExcelJS.ValueType.Date);
      expect((lan['Event starts'].value as Date).toISOString()).to.equal('2027-03-05T19:30:00.000Z');
      expect(lan['Event starts'].numFmt).to.equal('yyyy-mm-dd hh:mm');
      expect(lan['Total (VND)'].type).to.equal(ExcelJS.ValueType.Number);
      expect(lan['Total (VND)'].value).to.equal(4_000_000);
      expect(lan['Total (VND)'].numFmt).to.include('₫');
      expect(lan.Guests.value).to.equal(4);
      expect(lan.Customer.value).to.equal('Nguyễn Thị Lan');
      expect(lan['Checked in at'].value).to.equal(null);
      const formula = sheetRows(sheet).find((row) => row.Reference.value === fixture.references.formula)!;
      expect(formula.Customer.type).to.equal(ExcelJS.ValueType.String);
    });
  });

  describe('payments and refunds: by the day the money moved', () => {
    it('lists payments on VNPay’s pay day (local), with the statement’s references; from/to and gateway narrow', async () => {
      const all = csvRecords(await admin().get('/api/exports/payments'));
      const lan = all.find((row) => row['Transaction reference'] === 'VNP-LAN-1')!;
      // VNPay's 16:30 UTC on 4 March is 23:30 in Saigon: the 4th.
      expect(lan).to.include({ Day: '2027-03-04', 'Moved at': '2027-03-04 23:30:00', Gateway: 'VNPAY', 'Gateway transaction': '14123456', Bank: 'NCB', 'Amount (VND)': '2000000', Reservation: fixture.references.lan });
      const duc = all.find((row) => row['Transaction reference'] === 'CASH-DUC-1')!;
      expect(duc).to.include({ Day: '2027-03-05', Status: 'PARTIALLY_REFUNDED', 'Refunded (VND)': '500000', 'Net (VND)': '1500000' });

      const fourth = csvRecords(await admin().get('/api/exports/payments?from=2027-03-04&to=2027-03-04'));
      expect(fourth.map((row) => row['Transaction reference'])).to.deep.equal(['VNP-LAN-1']);
      expect(csvRecords(await admin().get('/api/exports/payments?from=2027-03-05')).map((row) => row['Transaction reference'])).to.deep.equal(['CASH-DUC-1']);
      expect(csvRecords(await admin().get('/api/exports/payments?gateway=CASH')).map((row) => row['Transaction reference'])).to.deep.equal(['CASH-DUC-1']);
    });

    it('lists refunds on the day they ended; XLSX has the day as a date and the amount as VND', async () => {
      const refunds = csvRecords(await admin().get('/api/exports/refunds?from=2027-03-06&to=2027-03-06'));
      // 17:30 UTC on the 5th is 00:30 on the 6th in Saigon.
      expect(refunds).to.have.length(1);
      expect(refunds[0]).to.include({ Day: '2027-03-06', Gateway: 'CASH', Status: 'SUCCEEDED', 'Amount (VND)': '500000', 'Payment transaction reference': 'CASH-DUC-1', Reason: 'Hoàn tiền một phần' });
      const sheet = (await workbookOf(await admin().get('/api/exports/refunds?format=xlsx'))).getWorksheet('Refunds')!;
      const [row] = sheetRows(sheet);
      expect((row.Day.value as Date).toISOString()).to.equal('2027-03-06T00:00:00.000Z');
      expect(row.Day.numFmt).to.equal('yyyy-mm-dd');
      expect(row['Amount (VND)'].value).to.equal(500_000);
      expect(row.Reason.value).to.equal('Hoàn tiền một phần');
    });
  });

  describe('customers (admin)', () => {
    it('holds the CRM record’s fields only, live customers unless includeDeleted, with the list’s search', async () => {
      const records = csvRecords(await admin().get('/api/exports/customers'));
      expect(Object.keys(records[0])).to.deep.equal(['Name', 'Honorific', 'E-mail', 'Phone', 'Locale', 'Bookings', 'Last booked at', 'Created at', 'Updated at', 'Deleted', 'Deleted at']);
      const names = records.map((row) => row.Name);
      expect(names).to.include('Nguyễn Thị Lan');
      expect(names).not.to.include('Phạm Đã Xoá');
      expect(records.find((row) => row.Name === 'Nguyễn Thị Lan')).to.include({ Bookings: '3', Deleted: 'FALSE', 'Last booked at': '2027-02-01 10:06:00' });
      const withDeleted = csvRecords(await admin().get('/api/exports/customers?includeDeleted=true'));
      expect(withDeleted.find((row) => row.Name === 'Phạm Đã Xoá')).to.include({ Deleted: 'TRUE', Bookings: '0' });
      expect(csvRecords(await admin().get('/api/exports/customers?q=%C4%91%E1%BB%A9c')).map((row) => row.Name)).to.deep.equal(['Trần Văn Đức']);
      const listed = (await admin().get('/api/customers?limit=100')).body.items.map((item: { email: string }) => item.email);
      expect(records.map((row) => row['E-mail'])).to.deep.equal(listed);
    });
  });

  describe('the waiting list and inquiries', () => {
    it('waiting list: the staff list’s filters, Vietnamese intact, typed in XLSX', async () => {
      const records = csvRecords(await staff().get(`/api/exports/waitlist?eventId=${fixture.eventId}`));
      expect(records).to.have.length(1);
      expect(records[0]).to.include({ Name: 'Lê Hoàng Yến', Guests: '3', Status: 'WAITING', Note: 'Cần ghế trẻ em', Show: 'Saigon Nights', 'Event starts': '2027-03-05 19:30:00' });
      expect(csvRecords(await staff().get('/api/exports/waitlist?q=other'))).to.have.length(1);
      const [row] = sheetRows((await workbookOf(await staff().get(`/api/exports/waitlist?format=xlsx&eventId=${fixture.eventId}`))).getWorksheet('Waiting list')!);
      expect(row.Guests.value).to.equal(3);
      expect(row['Joined at'].type).to.equal(ExcelJS.ValueType.Date);
    });

    it('inquiries: archived ones only when asked for; the preferred date a date cell', async () => {
      const records = csvRecords(await staff().get('/api/exports/inquiries'));
      expect(records.map((row) => row.Name)).to.deep.equal(['Công ty Ánh Dương']);
      expect(records[0]).to.include({ Type: 'CORPORATE', 'Preferred date': '2027-12-20', Guests: '80', Message: 'Tiệc cuối năm cho 80 người', 'Bot check passed': 'FALSE' });
      expect(csvRecords(await staff().get('/api/exports/inquiries?status=ARCHIVED')).map((row) => row.Name)).to.deep.equal(['Archived One']);
      const [row] = sheetRows((await workbookOf(await staff().get('/api/exports/inquiries?format=xlsx&type=CORPORATE'))).getWorksheet('Inquiries')!);
      expect((row['Preferred date'].value as Date).toISOString()).to.equal('2027-12-20T00:00:00.000Z');
    });
  });

  describe('the night lists of one performance', () => {
    before(function () {
      return hasPdftotext().then((present) => {
        if (!present) {
          console.warn('    pdftotext (poppler-utils) is not installed: the PDF checks are skipped. apt-get install -y poppler-utils');
        }
      });
    });

    const pdfOrSkip = async (context: Mocha.Context, path: string) => {
      if (!(await hasPdftotext())) context.skip();
      const res = await staff().get(path);
      return { res, text: await pdfText(res) };
    };

    it('door list PDF: Vietnamese rendered, grouped by table, paid and due, the checked-in time; only confirmed and checked-in parties', async function () {
      const { res, text } = await pdfOrSkip(this, `/api/exports/show-events/${fixture.eventId}/door-list?locale=vi`);
      expect(res.headers.get('cache-control')).to.equal('no-store');
      expect(savedName(res)).to.equal('Danh sách đón khách - Đêm Sài Gòn 2027-03-05 1930.pdf');
      for (const phrase of ['Danh sách đón khách', 'Đêm Sài Gòn', 'Nguyễn Thị Lan', 'Trần Văn Đức', 'Bàn A1 · VIP · 4 chỗ', 'Bàn B2 · Khu chính · 6 chỗ', 'Chưa xếp bàn', 'Ăn tối', 'Lan: Ăn chay, Dị ứng các loại hạt', '(Không đậu phộng)', 'Thứ Sáu 2027-03-05 19:30 · Mở cửa 18:30', 'Đức: Không thịt heo', 'Kỷ niệm ngày cưới', '2.000.000 ₫', '19:07', 'Trang 1/1']) {
        expect(text, phrase).to.include(phrase);
      }
      expect(text).to.match(/3 nhóm, 7 khách; đã đến: 1 nhóm, 2 khách/);
      expect(text).not.to.include(fixture.references.cancelled);
      expect(text).not.to.include(fixture.references.expired);
      expect(text).not.to.include(fixture.references.other);
      expect(text).not.to.include('Gone');
      // Tables in the floor plan's order, then no table.
      expect(text.indexOf('Bàn A1')).to.be.lessThan(text.indexOf('Bàn B2'));
      expect(text.indexOf('Bàn B2')).to.be.lessThan(text.indexOf('Chưa xếp bàn'));
    });

    it('door list by arrival: who is still to come first, then the 15-minute slot of each check-in', async function () {
      const { text } = await pdfOrSkip(this, `/api/exports/show-events/${fixture.eventId}/door-list?groupBy=arrival&locale=en`);
      expect(text).to.include('Door list');
      expect(text).to.include('Saigon Nights');
      expect(text.indexOf('Not arrived yet')).to.be.lessThan(text.indexOf('Arrived 19:00–19:15'));
      const [waiting, came] = text.split('Arrived 19:00–19:15');
      expect(waiting).to.include('Nguyễn Thị Lan');
      expect(came).to.include('Trần Văn Đức');
      expect(came).not.to.include('Nguyễn Thị Lan');
    });

    it('kitchen list PDF: what to prepare in all and per party, dietary needs counted, no money', async function () {
      const { res, text } = await pdfOrSkip(this, `/api/exports/show-events/${fixture.eventId}/kitchen-list?locale=vi`);
      expect(savedName(res)).to.equal('Danh sách bếp - Đêm Sài Gòn 2027-03-05 1930.pdf');
      for (const phrase of ['Danh sách bếp', 'Cần chuẩn bị', 'Bò lúc lắc', 'Nước mía', 'Nhu cầu ăn kiêng', 'Ăn chay', 'Không thịt heo', '4 × Bò lúc lắc, 8 × Nước mía']) expect(text, phrase).to.include(phrase);
      // 7 guests: 7 beef, 14 juices.
      expect(text).to.match(/BEEF\s+Bò lúc lắc\s+Món ăn\s+7/);
      expect(text).to.match(/JUICE\s+Nước mía\s+Đồ uống\s+14\s+VEGAN/);
      expect(text).not.to.include('₫');
    });

    it('door list XLSX: one row per party, typed (guests, VND, the check-in a local time), grouped as the PDF', async () => {
      const res = await staff().get(`/api/exports/show-events/${fixture.eventId}/door-list?format=xlsx&locale=en`);
      expect(savedName(res)).to.equal('Door list - Saigon Nights 2027-03-05 1930.xlsx');
      const rows = sheetRows((await workbookOf(res)).getWorksheet('Door list')!);
      expect(rows.map((row) => row['Ref.'].value)).to.deep.equal([fixture.references.lan, fixture.references.duc, fixture.references.formula]);
      const [lan, duc] = rows;
      expect(lan.Group.value).to.equal('Table A1 · VIP · 4 seats');
      expect(lan.Guests.value).to.equal(4);
      expect(lan.Due.value).to.equal(2_000_000);
      expect(lan.Due.numFmt).to.include('₫');
      expect(lan['Dietary needs'].value).to.equal('Lan: Vegetarian, Nut allergy (Không đậu phộng)');
      expect(lan['Checked in'].value).to.equal(null);
      expect((duc['Checked in'].value as Date).toISOString()).to.equal('2027-03-05T19:07:00.000Z');
      expect(duc.Due.value).to.equal(1_000_000);
    });

    it('kitchen list XLSX: the parties, the items to prepare and the dietary needs as three sheets', async () => {
      const workbook = await workbookOf(await staff().get(`/api/exports/show-events/${fixture.eventId}/kitchen-list?format=xlsx&locale=vi`));
      expect(workbook.worksheets.map((sheet) => sheet.name)).to.deep.equal(['Danh sách bếp', 'Cần chuẩn bị', 'Nhu cầu ăn kiêng']);
      const items = sheetRows(workbook.getWorksheet('Cần chuẩn bị')!).map((row) => [row['Mã món'].value, row['Số lượng'].value]);
      expect(items).to.deep.equal([
        ['BEEF', 7],
        ['JUICE', 14],
      ]);
      const needs = sheetRows(workbook.getWorksheet('Nhu cầu ăn kiêng')!).map((row) => [row['Nhu cầu ăn kiêng'].value, row['Số khách'].value]);
      expect(needs).to.deep.equal([
        ['Không thịt heo', 1],
        ['Dị ứng các loại hạt', 1],
        ['Ăn chay', 1],
      ]);
    });

    it('an empty performance prints its heading and says so', async function () {
      const show = await buildShow({ status: 'PUBLISHED', title: { en: 'Quiet Night' } });
      const empty = await buildEvent(show, { startsAt: new Date('2027-04-01T12:30:00Z') });
      const { text } = await pdfOrSkip(this, `/api/exports/show-events/${empty.id}/door-list?locale=en`);
      expect(text).to.include('Quiet Night');
      expect(text).to.include('No confirmed bookings.');
    });
  });
});
