import { expect } from 'chai';
import type { Browser, Page } from 'puppeteer-core';
import { seed } from '../../seed/index.ts';
import { startFakeTurnstile, TURNSTILE_DUMMY_TOKEN, TURNSTILE_TEST_SECRETS, type FakeTurnstile } from '../helpers/fakeTurnstile.ts';
import { startTestServer, SUPERUSER_TOKEN, type TestServer } from '../helpers/server.ts';
import { bookableEvent, contact } from '../modules/booking/factories.ts';
import { doorBooking } from '../modules/checkIns/helpers.ts';
import { buildStorefront, launchBrowser, serveStatic, step, textOf, watch, type StaticSite } from './helpers.ts';

/**
 * The reference storefront (examples/storefront) in Chromium, on its own origin, against the API on another, over
 * the demo venue: what a guest sees from the event list to a paid, then cancelled booking; the waiting list, the
 * inquiry form (Turnstile), the partners, the chat; the staff door page on a listed and an unlisted origin.
 */
const STAFF_PASSWORD = 'staff-password-1234';
const en = (amount: number) => new Intl.NumberFormat('en-US', { style: 'currency', currency: 'VND', maximumFractionDigits: 0 }).format(amount);
const vi = (amount: number) => new Intl.NumberFormat('vi-VN', { style: 'currency', currency: 'VND', maximumFractionDigits: 0 }).format(amount);
/** Cloudflare's widget as its always-passes test site key behaves: it solves at once with the dummy token. */
const FAKE_TURNSTILE_JS = `window.turnstile = { render(el, o) { el.textContent = 'Success!'; setTimeout(() => o.callback(${JSON.stringify(TURNSTILE_DUMMY_TOKEN)}), 10); return 'w0'; } };`;

describe('browser: the reference storefront, end to end in Chromium', function () {
  this.timeout(300_000);
  let server: TestServer;
  let site: StaticSite;
  let dashboardSite: StaticSite;
  let turnstile: FakeTurnstile;
  let browser: Browser;
  let page: Page;
  let seen: ReturnType<typeof watch>;
  /** Requests the page tried to send anywhere but the site, the API (both its names) and Turnstile (faked). */
  const strayRequests: string[] = [];

  before(async () => {
    site = await serveStatic();
    dashboardSite = await serveStatic();
    turnstile = await startFakeTurnstile();
    server = await startTestServer({
      config: {
        publicSiteUrl: site.origin,
        // Only the door page's origin gets credentials: the storefront's guest calls carry none.
        dashboardOrigins: [dashboardSite.origin],
        vnpaySandbox: true,
        publicApiUrlExplicit: false,
        botcheckSecretKey: TURNSTILE_TEST_SECRETS.pass,
        botcheckVerifyUrl: turnstile.url,
        llmChatRateLimitPerMinute: 10_000,
      },
    });
    await seed({ baseUrl: server.baseUrl, superuserToken: SUPERUSER_TOKEN, passwords: { admin: 'admin-password-1234', marketing: 'marketing-password-1234', staff: STAFF_PASSWORD }, catalog: 'always' });
    site.root = dashboardSite.root = await buildStorefront(server.baseUrl);
    browser = await launchBrowser();
    page = await browser.newPage();
    seen = watch(page);
    page.on('dialog', (dialog) => dialog.accept());
    await page.setRequestInterception(true);
    const apiPort = new URL(server.baseUrl).port;
    page.on('request', (request) => {
      const url = new URL(request.url());
      if (url.origin === 'https://challenges.cloudflare.com') return void request.respond({ status: 200, contentType: 'text/javascript', body: FAKE_TURNSTILE_JS });
      const local = url.protocol === 'blob:' || url.protocol === 'data:' || url.origin === site.origin || url.origin === dashboardSite.origin || ((url.hostname === '127.0.0.1' || url.hostname === 'localhost') && url.port === apiPort);
      if (!local) {
        strayRequests.push(request.url());
        return void request.abort();
      }
      void request.continue();
    });
  });

  after(async () => {
    await browser?.close();
    await server?.close();
    await site?.close();
    await dashboardSite?.close();
    await turnstile?.close();
  });

  /** A performance at least a week ahead (well inside the cancellation window), with seats. */
  async function bookableDemoEvent() {
    const res = await server.request<any>('GET', '/api/public/show-events?locale=en&show=saigon-chronicles&limit=50');
    const weekAhead = Date.now() + 7 * 86_400_000;
    const event = res.body.items.find((e: any) => e.state === 'AVAILABLE' && Date.parse(e.startsAt) > weekAhead);
    expect(event, 'a bookable demo performance').to.not.equal(undefined);
    return { event, offers: res.body.offers as any[] };
  }

  it('lists the upcoming performances in English and Vietnamese, with states, seats left and prices', async () => {
    const api = await server.request<any>('GET', '/api/public/show-events?locale=vi&limit=50');
    const first = api.body.items[0];
    const cheapest = Math.min(...first.offerCodes.map((code: string) => api.body.offers.find((o: any) => o.code === code).perGuest.totalVnd));
    await step(page, 'events-vi', async () => {
      await page.goto(`${site.origin}/vi`);
      expect(await textOf(page, 'h1')).to.equal('Suất diễn sắp tới');
      const item = await textOf(page, `li[data-event="${first.slug}"]`);
      expect(item).to.include(first.show.title);
      expect(item).to.include(vi(cheapest));
      if (first.state === 'AVAILABLE') expect(item).to.include(`${first.seatsLeft} chỗ còn lại`);
    });
    await step(page, 'events-en', async () => {
      await page.goto(`${site.origin}/en`);
      expect(await textOf(page, 'h1')).to.equal('Upcoming performances');
      const item = await textOf(page, `li[data-event="${first.slug}"]`);
      expect(item).to.include(en(cheapest));
    });
  });

  let reference = '';
  it('books through a partner\'s /go link: lead → hold with the attribution → VNPay sandbox → return page → ticket QR → cancel', async () => {
    const { event, offers } = await bookableDemoEvent();
    const offer = offers.find((o) => o.code === 'SGC-DINNER');
    await step(page, 'go-link', async () => {
      await page.goto(`${site.origin}/go/riverside-lobby`);
      await page.waitForFunction(() => window.location.pathname === '/en/shows', { timeout: 15_000 });
      await textOf(page, 'ul.events li');
    });
    await step(page, 'event-page', async () => {
      await page.goto(`${site.origin}/en/book/${event.slug}`);
      expect(await textOf(page, `li[data-offer="${offer.code}"]`)).to.include(en(offer.perGuest.totalVnd));
      expect(await textOf(page, '.state')).to.equal(`${event.seatsLeft} seats left`);
      expect(await textOf(page, '.attribution')).to.include('riverside-hotel');
    });
    await step(page, 'hold', async () => {
      await page.select('select[name=offerCode]', offer.code);
      await page.$eval('input[name=guestCount]', (el) => ((el as HTMLInputElement).value = ''));
      await page.type('input[name=guestCount]', '2');
      await page.type('input[name=name]', 'Lan Nguyen');
      await page.type('input[name=email]', 'lan@example.com');
      await page.click('form.booking button[type=submit]');
      await textOf(page, '.status', /HELD/);
    });
    reference = await textOf(page, '.reference');
    const row = await server.db.knex('reservations').where({ reference }).first();
    expect(row.status).to.equal('HELD');
    expect(row.guest_count).to.equal(2);
    expect(row.lead_id, 'the lead came first').to.not.equal(null);
    await step(page, 'summary', async () => {
      // The partner's code gives its guests 10% off the subtotal: what the guest sees is what was held.
      expect(await textOf(page, 'tr[data-row=subtotal] td')).to.equal(en(offer.perGuest.pricePerGuestVnd * 2));
      expect(await textOf(page, 'tr[data-row=discount] td')).to.equal(en(-Number(row.discount_vnd)));
      expect(Number(row.discount_vnd)).to.equal(Math.round(offer.perGuest.pricePerGuestVnd * 2 * 0.1));
      expect(await textOf(page, 'tr[data-row=total] td')).to.equal(en(Number(row.total_vnd)));
      expect(await textOf(page, '.due')).to.equal(en(Number(row.total_vnd)));
      expect(await textOf(page, '.payment-state')).to.equal('UNPAID');
    });
    await step(page, 'vnpay-sandbox', async () => {
      await Promise.all([page.waitForNavigation(), page.click('button[data-method=VNPAY]')]);
      expect(new URL(page.url()).pathname).to.equal('/api/payments/vnpay/sandbox');
      const sandboxText = await page.$eval('body', (b) => (b as HTMLElement).innerText);
      expect(sandboxText).to.include(reference);
      await Promise.all([page.waitForNavigation(), page.click('button[value=pay]')]);
    });
    await step(page, 'return-page', async () => {
      const back = new URL(page.url());
      expect(back.origin).to.equal(site.origin);
      expect(back.pathname).to.equal('/en/payment/return');
      expect(await textOf(page, '.payment-result')).to.equal('Payment received');
      await page.click('main a');
      await textOf(page, '.status', /CONFIRMED/);
    });
    await step(page, 'ticket', async () => {
      expect(await textOf(page, '.payment-state')).to.equal('PAID (VNPAY)');
      expect(await textOf(page, 'tr[data-row=due] td')).to.equal(en(0));
      await page.waitForFunction(() => {
        const img = document.querySelector('.ticket img') as HTMLImageElement | null;
        return !!img && img.complete && img.naturalWidth > 0;
      });
      const size = await page.$eval('.ticket img', (img) => [(img as HTMLImageElement).naturalWidth, (img as HTMLImageElement).naturalHeight]);
      expect(size[0]).to.be.greaterThan(100);
      expect(size[0]).to.equal(size[1]);
    });
    await step(page, 'cancel', async () => {
      await page.click('.cancel button');
      await textOf(page, '.status', /CANCELLED/);
      expect(await textOf(page, '.refunds')).to.include(en(Number(row.total_vnd)));
    });
    expect((await server.db.knex('reservations').where({ reference }).first()).status).to.equal('CANCELLED');
    expect(seen.pageErrors).to.deep.equal([]);
  });

  it('a sold-out performance offers the waiting list, and joining it works', async () => {
    const { event, offer } = await bookableEvent({ capacity: 2 });
    const held = await server.request<any>('POST', '/api/public/reservations', { body: { eventSlug: event.slug, offerCode: offer.code, guestCount: 2, contact: contact(71) } });
    expect(held.status).to.equal(201);
    await step(page, 'sold-out', async () => {
      await page.goto(`${site.origin}/en/book/${event.slug}`);
      expect(await textOf(page, '.state')).to.equal('Sold out');
      expect(await page.$('form.booking')).to.equal(null);
      await page.click('main a');
      await page.waitForSelector('input[name=name]');
    });
    await step(page, 'waitlist', async () => {
      await page.type('input[name=name]', 'Minh Tran');
      await page.type('input[name=email]', 'minh@example.com');
      await page.click('button[type=submit]');
      expect(await textOf(page, '.done')).to.include('waiting list');
    });
    const entries = await server.db.knex('waitlist_entries').select('*');
    expect(entries.some((entry: any) => entry.email === 'minh@example.com' && entry.guest_count === 2)).to.equal(true);
  });

  it('sends an inquiry with Turnstile\'s token, which the API verifies', async () => {
    const before = turnstile.requests.length;
    await step(page, 'inquiry', async () => {
      await page.goto(`${site.origin}/en/inquiries`);
      await textOf(page, '.turnstile', /Success/);
      await page.type('input[name=name]', 'Acme Travel');
      await page.type('input[name=email]', 'events@acme.example');
      await page.type('textarea[name=message]', 'A private evening for 40 guests in March.');
      await page.click('button[type=submit]');
      expect(await textOf(page, '.done')).to.include('Thank you');
    });
    const verified = turnstile.requests.slice(before);
    expect(verified.map((r) => r.form)).to.deep.equal([{ secret: TURNSTILE_TEST_SECRETS.pass, response: TURNSTILE_DUMMY_TOKEN, ...(verified[0].form.remoteip ? { remoteip: verified[0].form.remoteip } : {}), ...(verified[0].form.idempotency_key ? { idempotency_key: verified[0].form.idempotency_key } : {}) }]);
    expect(await server.db.knex('inquiries').where({ email: 'events@acme.example' })).to.have.length(1);
  });

  it('shows the partner directory and a partner\'s page', async () => {
    await step(page, 'partners', async () => {
      await page.goto(`${site.origin}/en/partners`);
      expect(await textOf(page, 'ul.partners')).to.include('Riverside Boutique Hotel');
      await page.click('ul.partners a');
      expect(await textOf(page, 'h1')).to.equal('Riverside Boutique Hotel');
      expect(await textOf(page, 'ul.codes')).to.include('RIVERSIDE10 — 10% off for guests');
    });
  });

  it('the chat widget streams the assistant\'s answer, whose link opens the show\'s page here', async () => {
    const { offers } = await bookableDemoEvent();
    const dinner = offers.find((o) => o.code === 'SGC-DINNER');
    await step(page, 'chat', async () => {
      await page.goto(`${site.origin}/en`);
      await page.click('.chat-open');
      await page.type('.chat input', 'How much is Saigon Chronicles?');
      await page.click('.chat button[type=submit]');
      const answer = await textOf(page, '.chat .message.assistant', /\S/, 60_000);
      await page.waitForFunction(() => !document.querySelector('.chat button[type=submit]')?.hasAttribute('disabled'), { timeout: 60_000 });
      const final = await page.$eval('.chat .message.assistant', (el) => (el as HTMLElement).innerText);
      expect(final.length).to.be.at.least(answer.length);
      expect(final).to.include(new Intl.NumberFormat('en-US').format(dinner.perGuest.pricePerGuestVnd));
      const href = `${site.origin}/en/shows/saigon-chronicles`;
      const links = await page.$$eval('.chat .message.assistant a', (anchors) => anchors.map((a) => (a as HTMLAnchorElement).href));
      expect(links).to.include(href);
      await Promise.all([page.waitForNavigation(), page.click(`.chat .message.assistant a[href="${href}"]`)]);
      expect(page.url()).to.equal(href);
      expect(await textOf(page, 'h1')).to.equal('Saigon Chronicles');
      await textOf(page, 'ul.events li');
    });
  });

  it('the door page signs staff in with the session cookie on a listed dashboard origin, looks a guest up by token and checks them in', async () => {
    const guest = await doorBooking(server);
    const door = await browser.newPage();
    const doorSeen = watch(door);
    await step(door, 'door-sign-in', async () => {
      await door.goto(`${dashboardSite.origin}/dashboard`);
      await door.type('input[name=identifier]', 'staff');
      await door.type('input[name=password]', STAFF_PASSWORD);
      await door.click('form.sign-in button');
      expect(await textOf(door, '.signed-in')).to.match(/\(staff\)$/);
    });
    await step(door, 'door-check-in', async () => {
      await door.type('input[name=token]', guest.token);
      await door.click('button[type=submit]');
      expect(await textOf(door, '.guest-status')).to.equal('CONFIRMED');
      await door.click('.guest button');
      expect(await textOf(door, '.check-in-result')).to.equal('Checked in: CHECKED_IN');
    });
    expect((await server.db.knex('reservations').where({ id: guest.id }).first()).status).to.equal('CHECKED_IN');
    expect(doorSeen.pageErrors).to.deep.equal([]);
    await door.close();
  });

  it('the same door page on an origin not listed in DASHBOARD_ORIGINS is refused credentials', async () => {
    // A fresh browser profile: the listed origin's sign-in above left its cookie in the shared one.
    const context = await browser.createBrowserContext();
    const door = await context.newPage();
    const sessionsBefore = await server.db.knex('sessions').count({ n: '*' }).first();
    await step(door, 'door-unlisted', async () => {
      await door.goto(`${site.origin}/dashboard`);
      await door.type('input[name=identifier]', 'staff');
      await door.type('input[name=password]', STAFF_PASSWORD);
      await door.click('form.sign-in button');
      expect(await textOf(door, '[role=alert]')).to.include('refused this page\'s credentials');
      expect(await door.$('.signed-in')).to.equal(null);
    });
    // The preflight of a credentialed call gets no Access-Control-Allow-Credentials: the browser never sends it.
    const sessionsAfter = await server.db.knex('sessions').count({ n: '*' }).first();
    expect(Number(sessionsAfter!.n)).to.equal(Number(sessionsBefore!.n));
    const cookies = await door.cookies(server.baseUrl);
    expect(cookies.map((c) => c.name)).to.not.include('venue_session');
    await context.close();
  });

  it('the door page registers a passkey for signed-in staff and signs in with it (Chromium’s virtual authenticator)', async () => {
    // WebAuthn needs a host name (an IP address is no relying party): the door page and the API both on
    // `localhost`, one site, so the SameSite=Lax session cookie rides along on the page's credentialed calls.
    const door = await serveStatic();
    const origin = door.origin.replace('127.0.0.1', 'localhost');
    const api = await startTestServer({
      config: { dashboardOrigins: [origin], webauthn: { rpId: 'localhost', rpName: 'Venue door', origins: [origin], challengeTtlSeconds: 300 } },
      keepData: true,
    });
    const context = await browser.createBrowserContext();
    try {
      door.root = await buildStorefront(api.baseUrl.replace('127.0.0.1', 'localhost'));
      const tab = await context.newPage();
      const tabSeen = watch(tab);
      const cdp = await tab.createCDPSession();
      await cdp.send('WebAuthn.enable');
      const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
        options: { protocol: 'ctap2', transport: 'internal', hasResidentKey: true, hasUserVerification: true, isUserVerified: true, automaticPresenceSimulation: true },
      });
      await step(tab, 'door-passkey-register', async () => {
        await tab.goto(`${origin}/dashboard`);
        await tab.type('input[name=identifier]', 'staff');
        await tab.type('input[name=password]', STAFF_PASSWORD);
        await tab.click('form.sign-in button');
        expect(await textOf(tab, '.signed-in')).to.match(/\(staff\)$/);
        await tab.click('button.passkey-add');
        expect(await textOf(tab, '.passkey-note')).to.equal('Passkey added: Door device');
      });
      const [held] = (await cdp.send('WebAuthn.getCredentials', { authenticatorId })).credentials;
      const stored = await api.db.knex('passkeys as p').join('accounts as a', 'a.id', 'p.account_id').where('a.email', 'like', 'staff@%').select('p.label', 'p.counter');
      expect(stored.map((row) => row.label)).to.deep.equal(['Door device']);
      expect(held, 'the authenticator holds the passkey').to.not.equal(undefined);

      await step(tab, 'door-passkey-sign-in', async () => {
        await tab.click('button.sign-out');
        await tab.waitForSelector('button.passkey-sign-in');
        expect((await tab.cookies(api.baseUrl.replace('127.0.0.1', 'localhost'))).map((c) => c.name)).to.not.include('venue_session');
        await tab.click('button.passkey-sign-in');
        expect(await textOf(tab, '.signed-in')).to.match(/\(staff\)$/);
      });
      const after = await api.db.knex('passkeys as p').join('accounts as a', 'a.id', 'p.account_id').where('a.email', 'like', 'staff@%').first('p.counter', 'p.last_used_at');
      expect(after.last_used_at, 'the sign-in used the stored passkey').to.not.equal(null);
      expect(tabSeen.pageErrors).to.deep.equal([]);
    } finally {
      await context.close();
      await api.close();
      await door.close();
    }
  });

  it('no page of the journey asked anything of another host', () => {
    expect(strayRequests).to.deep.equal([]);
  });
});
