import { expect } from 'chai';
import type { Browser, Page } from 'puppeteer-core';
import { DICTIONARIES } from '../../examples/storefront/src/i18n.ts';
import { loadConfig } from '../../server/platform/config.ts';
import { GIFT_VOUCHER_DELIVER_QUEUE } from '../../server/modules/giftVouchers/jobs.ts';
import { deliverGiftVoucher } from '../../server/modules/giftVouchers/commands/deliverGiftVoucher.ts';
import { eventually } from '../helpers/eventually.ts';
import { deliveredNow } from '../helpers/mail.ts';
import { asSuperuser, startTestServer, type TestServer } from '../helpers/server.ts';
import { bookableEvent } from '../modules/booking/factories.ts';
import { hasPdftotext, pdfBytesText } from '../modules/exports/helpers.ts';
import { axeViolations, buildStorefront, clickWhenReady, launchBrowser, screenshot, serveStatic, step, textOf, watch, type StaticSite } from './helpers.ts';

/**
 * A gift voucher bought on the reference storefront in Chromium (issue 36 §1, "Done when"), in Vietnamese on a phone
 * (390 px): the menu's gift-voucher link → the form (an amount, who it is from and for, a message with diacritics,
 * today as the delivery date) → VNPay's development sandbox → the return page showing the order paid. The recipient's
 * e-mail (the delivery job run as the engine would, read through the admin e-mail ledger API, then handed to a
 * transport) carries the code and the printable PDF, whose text keeps its Vietnamese; the code then pays part of a
 * booking made on the storefront.
 */
describe('browser: a gift voucher bought on the storefront, delivered, and redeemed', function () {
  this.timeout(300_000);
  const locale = 'vi' as const;
  const w = DICTIONARIES[locale];
  let server: TestServer;
  let site: StaticSite;
  let browser: Browser;
  let page: Page;
  let seen: ReturnType<typeof watch>;

  before(async () => {
    site = await serveStatic();
    server = await startTestServer({
      config: { publicSiteUrl: loadConfig({ NODE_ENV: 'test', PUBLIC_SITE_URL: site.origin }).publicSiteUrl, vnpaySandbox: true, publicApiUrlExplicit: false },
    });
    site.root = await buildStorefront(server.baseUrl);
    browser = await launchBrowser();
    const context = await browser.createBrowserContext();
    page = await context.newPage();
    await page.setViewport({ width: 390, height: 844, isMobile: true, hasTouch: true, deviceScaleFactor: 1 });
    seen = watch(page);
  });

  after(async () => {
    await browser?.close();
    await server?.close();
    await site?.close();
  });

  const settled = () => page.waitForFunction(() => !document.querySelector('.notice-loading'), { timeout: 20_000 });

  it('buys through the sandbox, e-mails the recipient the code and the PDF, and the code pays part of a booking', async () => {
    const recipientEmail = `duc.${Date.now()}@example.com`;
    await step(page, 'gift page', async () => {
      await page.goto(`${site.origin}/${locale}`);
      await settled();
      await page.click(`.main-nav a[href="/${locale}/gift-vouchers"]`);
      await page.waitForSelector('form.gift-voucher');
      expect(await textOf(page, 'h1')).to.equal(w.giftTitle);
      expect(await page.evaluate(() => document.documentElement.lang)).to.equal('vi');
      expect(await page.$eval('.main-nav a[aria-current=page]', (a) => (a as HTMLElement).innerText)).to.equal(w.navGiftVouchers);
      // Every input has its label; nothing on the phone is wider than the screen.
      expect(await page.$$eval('form.gift-voucher input:not([type=radio]), form.gift-voucher textarea', (inputs) => inputs.filter((i) => !(i as HTMLInputElement).labels?.length).length)).to.equal(0);
      expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).to.equal(true);
      const violations = await axeViolations(page);
      expect(violations, JSON.stringify(violations, null, 2)).to.deep.equal([]);
      await screenshot(page, 'vi-gift-voucher');
    });

    await step(page, 'gift order → sandbox', async () => {
      await page.click('label[data-amount="1000000"]');
      await page.type('input[name=buyerName]', 'Nguyễn Thị Lan');
      await page.type('input[name=buyerEmail]', 'lan.nguyen@example.com');
      await page.type('input[name=recipientName]', 'Trần Minh Đức');
      await page.type('input[name=recipientEmail]', recipientEmail);
      await page.type('textarea[name=message]', 'Chúc mừng sinh nhật! Hẹn gặp ở nhà hát.');
      await Promise.all([page.waitForNavigation(), page.click('form.gift-voucher button[type=submit]')]);
      expect(new URL(page.url()).pathname).to.equal('/api/payments/vnpay/sandbox');
      await Promise.all([page.waitForNavigation(), page.click('button[value=pay]')]);
      const back = new URL(page.url());
      expect([back.origin, back.pathname]).to.deep.equal([site.origin, `/${locale}/payment/return`]);
      expect(await textOf(page, '.payment-result')).to.equal(w.paymentReceived);
      await page.waitForSelector('.gift-order[data-status=PAID]');
      expect(await textOf(page, '.gift-order-status')).to.contain(w.giftStatus.PAID);
      await screenshot(page, 'vi-gift-voucher-paid');
    });

    const order = await server.db.knex('gift_voucher_orders').where({ recipient_email: recipientEmail }).first();
    expect(order).to.include({ status: 'PAID', amount_vnd: 1_000_000, locale: 'vi' });
    // Today's delivery is due at once: the engine would run it now; here it is run as the engine would.
    const jobs = (await server.db.knex.raw(`select start_after from pgboss.job where name = ? and data->>'orderId' = ?`, [GIFT_VOUCHER_DELIVER_QUEUE, order.id])) as { rows: Array<{ start_after: Date }> };
    expect(new Date(jobs.rows[0].start_after).getTime()).to.be.at.most(Date.now());
    expect(await deliverGiftVoucher(server.app.context, order.id)).to.equal('delivered');

    // The recipient's e-mail, as staff read it in the ledger (admin API) and as the recipient receives it.
    const listed = await eventually(async () => {
      const res = await server.request<any>('GET', `/api/email/messages?to=${encodeURIComponent(recipientEmail)}&template=gift-voucher-delivery`, { headers: asSuperuser });
      return res.body.items?.[0];
    }, { what: () => 'the recipient’s e-mail in the ledger' });
    expect(listed.attachments.map((a: { filename: string; contentType: string }) => [a.filename, a.contentType])).to.deep.equal([[`gift-voucher-${order.reference}.pdf`, 'application/pdf']]);
    const content = await server.request<any>('GET', `/api/email/messages/${listed.id}/content`, { headers: asSuperuser });
    const code = /GV-[2-9A-HJKMNP-Z]{4}-[2-9A-HJKMNP-Z]{4}/.exec(content.body.textBody)?.[0];
    expect(code, 'the code in the e-mail').to.be.a('string');
    expect(content.body.textBody).to.contain('Chúc mừng sinh nhật! Hẹn gặp ở nhà hát.');
    const mail = await deliveredNow(server.db.knex, listed.id);
    const pdf = mail.attachments?.find((a) => a.contentType === 'application/pdf');
    expect(pdf, 'the PDF attached to the mail sent').to.not.equal(undefined);
    if (await hasPdftotext()) {
      const text = (await pdfBytesText(Buffer.from(pdf!.content as Buffer))).replace(/\s+/g, ' ');
      expect(text).to.contain('Phiếu quà tặng').and.contain('Trần Minh Đức').and.contain(code!).and.contain('1.000.000 ₫');
    }

    // The code pays part of a booking made on the storefront.
    const { event, offer } = await bookableEvent({ price: 1_500_000 });
    await step(page, 'booking with the code', async () => {
      await page.goto(`${site.origin}/${locale}/book/${event.slug}`);
      await page.waitForSelector('form.booking');
      await settled();
      await page.click(`label[data-offer="${offer.code}"]`);
      await page.type('form.booking input[name=name]', 'Trần Minh Đức');
      await page.type('form.booking input[name=email]', recipientEmail);
      await page.click('form.booking details.codes summary');
      await page.type('form.booking input[name=voucherCode]', code!);
      await clickWhenReady(page, 'form.booking button.hold');
      expect(await textOf(page, '.status')).to.equal(w.statusWords.HELD);
      await page.waitForSelector('tr[data-row=voucher]');
      await screenshot(page, 'vi-gift-voucher-redeemed');
    });
    const reference = await textOf(page, '.reference');
    const reservation = await server.db.knex('reservations').where({ reference }).first();
    expect(Number(reservation.voucher_credit_vnd)).to.equal(1_000_000);
    expect(Number(reservation.total_vnd), 'the rest is still to pay').to.be.above(0);
    expect((await server.db.knex('vouchers').where({ code }).first()).remaining_value_vnd).to.equal(0);
    expect(seen.pageErrors).to.deep.equal([]);
  });
});
