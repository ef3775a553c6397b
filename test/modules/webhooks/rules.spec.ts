import { createHmac } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import { Webhook, WebhookVerificationError } from 'standardwebhooks';
import type { WebhookEvent } from '../../../sdk/index.ts';
import { renderTemplate } from '../../../server/modules/email/templates.ts';
import { failedLongEnough, newWebhookSecret, retryDelaySeconds, signatureHeader } from '../../../server/modules/webhooks/eventTypes.ts';
import { ConfigError, loadConfig } from '../../../server/platform/config.ts';
import { AddressGuard, guardedPost } from '../../../server/platform/integrations/outboundHttp.ts';

/**
 * The webhooks' rules and transport without a database (issue 36 §3): Standard Webhooks signatures checked by the
 * `standardwebhooks` library's verifier and by the specification's own algorithm, the retry schedule and the
 * disabling rule, the address guard (SSRF) and the guarded POST against a local server, the configuration, and the
 * administrators' e-mail in both locales.
 */
describe('webhooks: signatures, schedule, address guard and transport', () => {
  describe('Standard Webhooks signatures', () => {
    const body = JSON.stringify({ type: 'inquiry.received', timestamp: '2026-11-23T10:00:00.000Z', data: { inquiryId: 'i-1' } });
    const id = '0193a1f2-7c4e-4b1a-9c2d-5e6f7a8b9c0d';

    it('makes whsec_ secrets of 32 random bytes, each different', () => {
      const secrets = new Set(Array.from({ length: 20 }, newWebhookSecret));
      expect(secrets.size).to.equal(20);
      for (const secret of secrets) {
        expect(secret).to.match(/^whsec_[A-Za-z0-9+/]{43}=$/);
        expect(Buffer.from(secret.slice(6), 'base64')).to.have.length(32);
      }
    });

    it('signs as the specification says (HMAC-SHA256 of "id.timestamp.body" keyed with the secret’s bytes), and the library’s verifier accepts it', () => {
      const secret = newWebhookSecret();
      const now = new Date();
      const seconds = String(Math.floor(now.getTime() / 1000));
      const header = signatureHeader([secret], id, now, body);
      const byHand = createHmac('sha256', Buffer.from(secret.slice(6), 'base64')).update(`${id}.${seconds}.${body}`).digest('base64');
      expect(header).to.equal(`v1,${byHand}`);
      expect(new Webhook(secret).verify(body, { 'webhook-id': id, 'webhook-timestamp': seconds, 'webhook-signature': header })).to.deep.equal(JSON.parse(body));
      expect(() => new Webhook(newWebhookSecret()).verify(body, { 'webhook-id': id, 'webhook-timestamp': seconds, 'webhook-signature': header })).to.throw(WebhookVerificationError);
      expect(() => new Webhook(secret).verify(`${body} `, { 'webhook-id': id, 'webhook-timestamp': seconds, 'webhook-signature': header })).to.throw(WebhookVerificationError);
    });

    it('the SDK types each body by its type (WebhookEvent narrows on `type`)', () => {
      const event = JSON.parse('{"type":"voucher.redeemed","timestamp":"2026-11-23T10:00:00.000Z","data":{"voucherId":"v","amountVnd":500000,"remainingVnd":0,"reservationId":"r","reference":"VN-ABC234"}}') as WebhookEvent;
      const remaining = event.type === 'voucher.redeemed' ? event.data.remainingVnd : undefined;
      expect(remaining).to.equal(0);
      const confirmed: WebhookEvent<'reservation.confirmed'>['data']['amounts']['dueVnd'] = 0;
      expect(confirmed).to.equal(0);
    });

    it('carries one signature per secret during a rotation’s overlap, space-separated; either verifies', () => {
      const [current, previous] = [newWebhookSecret(), newWebhookSecret()];
      const now = new Date();
      const headers = { 'webhook-id': id, 'webhook-timestamp': String(Math.floor(now.getTime() / 1000)), 'webhook-signature': signatureHeader([current, previous], id, now, body) };
      expect(headers['webhook-signature']).to.match(/^v1,\S+ v1,\S+$/);
      for (const secret of [current, previous]) expect(new Webhook(secret).verify(body, headers)).to.deep.equal(JSON.parse(body));
      expect(() => new Webhook(newWebhookSecret()).verify(body, headers)).to.throw(WebhookVerificationError);
    });
  });

  describe('the retry schedule and the disabling rule', () => {
    const schedule = loadConfig({ NODE_ENV: 'test' }).webhooks.retryScheduleSeconds;

    it('retries for about a day: 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h, then gives up', () => {
      expect(schedule).to.deep.equal([5, 300, 1800, 7200, 18000, 36000, 36000]);
      expect([1, 2, 3, 4, 5, 6, 7, 8].map((failed) => retryDelaySeconds(schedule, failed))).to.deep.equal([5, 300, 1800, 7200, 18000, 36000, 36000, undefined]);
      expect(schedule.reduce((sum, delay) => sum + delay, 0) / 3600).to.be.within(24, 30);
      expect(retryDelaySeconds([], 1)).to.equal(undefined);
    });

    it('disables after every attempt failed for the configured hours (0: never)', () => {
      const since = new Date('2026-11-23T10:00:00Z');
      expect(failedLongEnough(since, new Date('2026-11-24T09:59:59Z'), 24)).to.equal(false);
      expect(failedLongEnough(since, new Date('2026-11-24T10:00:00Z'), 24)).to.equal(true);
      expect(failedLongEnough(since, new Date('2027-11-24T10:00:00Z'), 0)).to.equal(false);
    });
  });

  describe('the address guard (SSRF)', () => {
    it('refuses loopback, private, link-local, unique-local, CGNAT, unspecified, multicast and mapped forms; lets the public internet through', () => {
      const guard = new AddressGuard();
      const refused = ['127.0.0.1', '127.8.9.10', '10.1.2.3', '172.16.0.1', '172.31.255.255', '192.168.0.10', '169.254.169.254', '100.64.0.1', '0.0.0.0', '224.0.0.1', '255.255.255.255', '::1', '::', 'fd00::1', 'fc00::1', 'fe80::1', '::ffff:127.0.0.1', '::ffff:10.0.0.1', '64:ff9b::a00:1', 'ff02::1'];
      for (const address of refused) expect(guard.permits(address), address).to.equal(false);
      for (const address of ['93.184.216.34', '8.8.8.8', '172.32.0.1', '2606:4700:4700::1111', '::ffff:8.8.8.8']) expect(guard.permits(address), address).to.equal(true);
    });

    it('lets through the networks the venue allows, and only those', () => {
      const guard = new AddressGuard(['127.0.0.1/32', '10.20.0.0/16', 'fd12::/16', '192.168.1.7']);
      for (const address of ['127.0.0.1', '::ffff:127.0.0.1', '10.20.3.4', 'fd12::9', '192.168.1.7']) expect(guard.permits(address), address).to.equal(true);
      for (const address of ['127.0.0.2', '10.21.0.1', 'fd13::1', '192.168.1.8', '::1']) expect(guard.permits(address), address).to.equal(false);
    });
  });

  describe('the guarded POST', () => {
    let server: http.Server;
    let base: string;
    const hits: string[] = [];
    before(async () => {
      server = http.createServer((request, response) => {
        hits.push(request.url ?? '');
        if (request.url === '/moved') return void response.writeHead(307, { location: '/target' }).end();
        if (request.url === '/slow') return;
        request.resume();
        request.on('end', () => response.writeHead(200).end('é'.repeat(5_000)));
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    });
    after(async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    });
    beforeEach(() => {
      hits.length = 0;
    });
    const options = (allowed: string[] = ['127.0.0.1/32']) => ({ guard: new AddressGuard(allowed), timeoutMs: 500, excerptBytes: 1024, headers: { 'content-type': 'application/json' } });

    it('refuses a loopback address, literal or resolved, without connecting', async () => {
      const port = new URL(base).port;
      for (const url of [`${base}/`, `http://localhost:${port}/`, `http://[::1]:${port}/`, `http://[::ffff:127.0.0.1]:${port}/`]) {
        const answer = await guardedPost(url, '{}', options([]));
        expect(answer, url).to.deep.include({ answered: false, failure: 'refused' });
      }
      expect(hits).to.deep.equal([]);
    });

    it('follows no redirect, reads at most 1 KiB of the answer, and times out', async () => {
      const moved = await guardedPost(`${base}/moved`, '{}', options());
      expect(moved).to.deep.include({ answered: true, statusCode: 307, location: '/target' });
      expect(hits).to.deep.equal(['/moved']);
      const big = await guardedPost(`${base}/big`, '{}', options());
      expect(big.answered && Buffer.byteLength(big.excerpt)).to.be.at.most(1024).and.at.least(1022);
      expect(big.answered && big.excerpt).to.match(/^é+$/);
      const slow = await guardedPost(`${base}/slow`, '{}', options());
      expect(slow).to.deep.include({ answered: false, failure: 'timeout', error: 'no answer within 500 ms' });
      const nowhere = await guardedPost('http://127.0.0.1:1/', '{}', options());
      expect(nowhere).to.deep.include({ answered: false, failure: 'network' });
    });
  });

  describe('configuration', () => {
    it('reads WEBHOOK_* and refuses bad values, naming the variable', () => {
      expect(loadConfig({ WEBHOOK_RETRY_SCHEDULE_SECONDS: '1, 2,3', WEBHOOK_ALLOWED_NETWORKS: '127.0.0.1/32, fd00::/8, 10.0.0.7', WEBHOOK_TIMEOUT_MS: '2500' }).webhooks).to.deep.equal({
        timeoutMs: 2500,
        retryScheduleSeconds: [1, 2, 3],
        disableAfterHours: 24,
        secretOverlapHours: 24,
        allowedNetworks: ['127.0.0.1/32', 'fd00::/8', '10.0.0.7'],
      });
      const bad: Array<[Record<string, string>, RegExp]> = [
        [{ WEBHOOK_RETRY_SCHEDULE_SECONDS: '5,,30' }, /WEBHOOK_RETRY_SCHEDULE_SECONDS/],
        [{ WEBHOOK_RETRY_SCHEDULE_SECONDS: '5,-1' }, /WEBHOOK_RETRY_SCHEDULE_SECONDS/],
        [{ WEBHOOK_RETRY_SCHEDULE_SECONDS: '999999' }, /WEBHOOK_RETRY_SCHEDULE_SECONDS/],
        [{ WEBHOOK_ALLOWED_NETWORKS: '10.0.0.0/33' }, /WEBHOOK_ALLOWED_NETWORKS: "10\.0\.0\.0\/33"/],
        [{ WEBHOOK_ALLOWED_NETWORKS: 'intranet.local' }, /WEBHOOK_ALLOWED_NETWORKS/],
        [{ WEBHOOK_ALLOWED_NETWORKS: '10.0.0.0/' }, /WEBHOOK_ALLOWED_NETWORKS/],
        [{ WEBHOOK_TIMEOUT_MS: '100' }, /WEBHOOK_TIMEOUT_MS/],
        [{ WEBHOOK_DISABLE_AFTER_HOURS: '-1' }, /WEBHOOK_DISABLE_AFTER_HOURS/],
      ];
      for (const [env, message] of bad) expect(() => loadConfig(env), JSON.stringify(env)).to.throw(ConfigError, message);
    });
  });

  describe('the administrators’ e-mail', () => {
    it('renders webhook-endpoint-disabled in en and vi', async () => {
      const data = { endpointUrl: 'https://crm.example.com/hooks', description: 'CRM', failingSince: '2026-11-22T03:00:00Z', disabledAt: '2026-11-23T03:05:00Z', lastError: 'the endpoint answered 503', pendingFailed: 3 };
      const en = await renderTemplate('webhook-endpoint-disabled', 'en', data, { venueName: 'Venue' });
      expect(en.subject).to.equal('Webhook endpoint disabled: https://crm.example.com/hooks');
      expect(en.text).to.include('has failed since').and.include('the endpoint answered 503').and.include('3 event(s)').and.include('CRM');
      const vi = await renderTemplate('webhook-endpoint-disabled', 'vi', data, { venueName: 'Venue' });
      expect(vi.locale).to.equal('vi');
      expect(vi.subject).to.equal('Đã tắt điểm nhận webhook: https://crm.example.com/hooks');
      expect(vi.text).to.include('đều thất bại kể từ').and.include('3 sự kiện');
      expect(vi.html).to.contain('lang="vi"');
    });
  });
});
