import { expect } from 'chai';
import { loadConfig } from '../../server/platform/config.ts';
import type { HandlerMap } from '../../server/platform/http/handler.ts';
import { createAnalytics } from '../../server/platform/integrations/analytics.ts';
import { handlers as allHandlers } from '../../server/modules/index.ts';
import { capturedEvents as events, startFakePostHog, type FakePostHog } from '../helpers/fakePosthog.ts';
import { closedPortUrl } from '../helpers/fakePeer.ts';
import { memoryLogger } from '../helpers/mail.ts';
import { SUPERUSER_TOKEN, startTestServer } from '../helpers/server.ts';



describe('integrations: analytics (PostHog)', () => {
  let fake: FakePostHog;
  beforeEach(async () => {
    fake = await startFakePostHog();
  });
  afterEach(() => fake.close());

  it('configuration: off by default; POSTHOG_API_KEY required when enabled', () => {
    const config = loadConfig({});
    expect(config).to.include({ analyticsEnabled: false, posthogApiKey: undefined, posthogHost: 'https://us.i.posthog.com', analyticsTimeoutMs: 5000 });
    expect(() => loadConfig({ ANALYTICS_ENABLED: 'true' })).to.throw(/POSTHOG_API_KEY/);
    expect(loadConfig({ ANALYTICS_ENABLED: 'true', POSTHOG_API_KEY: 'phc_x', POSTHOG_HOST: 'http://ph.local/' })).to.include({
      analyticsEnabled: true,
      posthogApiKey: 'phc_x',
      posthogHost: 'http://ph.local',
    });
  });

  it('capture: the batch posted to /batch/ carries the api key, the event, its distinct id and properties', async () => {
    const { logger } = memoryLogger();
    const analytics = createAnalytics({ enabled: true, apiKey: 'phc_test_key', host: fake.url, timeoutMs: 2000, flushIntervalMs: 60_000 }, logger);
    expect(analytics.enabled).to.equal(true);
    expect(
      analytics.capture({
        distinctId: 'customer-42',
        event: 'reservation created',
        properties: { amount: 1_500_000, guestCount: 2, bookingPath: 'DINNER_SHOW', hasReferral: false },
      }),
    ).to.equal(undefined);
    await analytics.flush();
    const [request] = await fake.received(1);
    expect(request.method).to.equal('POST');
    expect(request.path).to.equal('/batch/');
    expect(request.body.api_key).to.equal('phc_test_key');
    const [event] = events([request]);
    expect(event.event).to.equal('reservation created');
    expect(event.distinct_id).to.equal('customer-42');
    expect(event.properties).to.include({ amount: 1_500_000, guestCount: 2, bookingPath: 'DINNER_SHOW', hasReferral: false });
    await analytics.shutdown();
  });

  it('sends on its own after the flush interval, without a flush call', async () => {
    const { logger } = memoryLogger();
    const analytics = createAnalytics({ enabled: true, apiKey: 'phc_k', host: fake.url, timeoutMs: 2000, flushIntervalMs: 20 }, logger);
    analytics.capture({ distinctId: 'd', event: 'inquiry submitted', properties: { inquiryType: 'PRIVATE_EVENT' } });
    const requests = await fake.received(1);
    expect(events(requests).map((e) => e.event)).to.deep.equal(['inquiry submitted']);
    await analytics.shutdown();
  });

  it('a 5xx in the app: captureException sends the error and request id, method, route, status — no body, no credentials; flushed by close()', async () => {
    const password = 'correct-horse-battery-staple';
    const handlers: HandlerMap = {
      ...allHandlers,
      signIn: () => {
        // An error carrying request data of its own: none of it may leave.
        throw Object.assign(new Error('database went away', { cause: new Error('connection reset') }), {
          request: { body: { identifier: 'admin', password }, headers: { cookie: 'venue_session=abc' } },
        });
      },
    };
    const server = await startTestServer({
      handlers,
      config: { analyticsEnabled: true, posthogApiKey: 'phc_app_key', posthogHost: fake.url },
    });
    let closed = false;
    try {
      const res = await server.request('POST', '/api/auth/sign-in', {
        body: { identifier: 'admin', password },
        headers: { 'x-api-token': SUPERUSER_TOKEN, cookie: 'venue_session=abc', authorization: `Bearer ${SUPERUSER_TOKEN}` },
        unchecked: true,
      });
      expect(res.status).to.equal(500);
      // A 4xx is not a server exception.
      const bad = await server.request('POST', '/api/auth/sign-in', { rawBody: '{', headers: { 'content-type': 'application/json' } });
      expect(bad.status).to.equal(400);
      await server.close();
      closed = true;

      const requests = await fake.received(1);
      const all = events(requests);
      expect(all.map((e) => e.event)).to.deep.equal(['$exception']);
      const [exception] = all;
      expect(exception.properties).to.include({
        requestId: res.headers.get('x-request-id'),
        method: 'POST',
        route: '/api/auth/sign-in',
        status: 500,
      });
      const list = exception.properties.$exception_list as Array<Record<string, any>>;
      expect(list.map((e) => [e.type, e.value])).to.deep.equal([
        ['Error', 'database went away'],
        ['Error', 'connection reset'],
      ]);
      expect(list[0].stacktrace.frames.length).to.be.greaterThan(0);
      const text = requests.map((r) => r.text).join('\n');
      for (const secret of [password, SUPERUSER_TOKEN, 'venue_session', 'identifier', 'authorization', 'cookie']) {
        expect(text, secret).not.to.contain(secret);
      }
      expect(requests[0].body.api_key).to.equal('phc_app_key');
    } finally {
      if (!closed) await server.close();
    }
  });

  it('disabled: nothing is sent at all (and the log says so once)', async () => {
    const { logger, lines } = memoryLogger();
    const off = createAnalytics({ enabled: false, apiKey: 'phc_unused', host: fake.url, timeoutMs: 2000, flushIntervalMs: 1 }, logger);
    expect(off.enabled).to.equal(false);
    off.capture({ distinctId: 'd', event: 'reservation created', properties: { amount: 1 } });
    off.captureException(new Error('boom'), { requestId: 'r', method: 'GET', route: '/x', status: 500 });
    await off.flush();
    await off.shutdown();
    expect(lines.filter((l) => /analytics disabled/.test(l.msg))).to.have.length(1);

    // A barrier: an enabled client's event reaches the fake; had the disabled one sent anything, it would be
    // in the same requests list (and sent earlier).
    const on = createAnalytics({ enabled: true, apiKey: 'phc_on', host: fake.url, timeoutMs: 2000, flushIntervalMs: 60_000 }, memoryLogger().logger);
    on.capture({ distinctId: 'd', event: 'barrier' });
    await on.flush();
    const requests = await fake.received(1);
    expect(requests).to.have.length(1);
    expect(events(requests).map((e) => e.event)).to.deep.equal(['barrier']);
    expect(requests[0].body.api_key).to.equal('phc_on');
    await on.shutdown();
  });

  it('the app with analytics off sends nothing for a 5xx', async () => {
    const handlers: HandlerMap = { ...allHandlers, getLiveness: () => { throw new Error('boom'); } };
    const server = await startTestServer({ handlers, config: { posthogHost: fake.url } });
    expect(server.app.context.analytics.enabled).to.equal(false);
    const res = await server.request('GET', '/api/system/health/live', { unchecked: true });
    expect(res.status).to.equal(500);
    await server.close();
    expect(fake.requests).to.have.length(0);
  });

  it('an unreachable host never throws into the caller; the failure is logged', async () => {
    // A port nothing listens on any more (connection refused).
    const closed = await closedPortUrl();
    const { logger, lines } = memoryLogger();
    const analytics = createAnalytics(
      { enabled: true, apiKey: 'phc_k', host: closed, timeoutMs: 500, flushIntervalMs: 60_000, retryDelayMs: 10 },
      logger,
    );
    expect(() => analytics.capture({ distinctId: 'd', event: 'payment failed' })).not.to.throw();
    expect(() => analytics.captureException(new Error('x'), { requestId: 'r', status: 500 })).not.to.throw();
    await analytics.flush(); // resolves: the failure is logged, not thrown
    expect(lines.some((l) => l.level === 'warn' && /could not be sent/.test(l.msg))).to.equal(true);
    await analytics.shutdown();
    expect(() => analytics.capture({ distinctId: 'd', event: 'after shutdown' })).not.to.throw();
  });
});
