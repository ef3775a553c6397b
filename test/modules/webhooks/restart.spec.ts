import { expect } from 'chai';
import { jobs as webhookJobs } from '../../../server/modules/webhooks/jobs.ts';
import { eventually } from '../../helpers/eventually.ts';
import { buildMemberSession } from '../../helpers/factories.ts';
import { cookieHeader, startTestServer } from '../../helpers/server.ts';
import { hold } from '../payments/helpers.ts';
import { createEndpoint, sendInquiry, webhooksConfig } from './helpers.ts';
import { startReceiver } from './receiver.ts';

/**
 * Webhooks through the job engine itself (issue 36 §3, "Done when": across a server restart): messages written by one
 * process, which stops before any is sent, are delivered by the next one on the same database — its workers running the
 * webhook queue, retrying a receiver that fails each message's first attempt on a short schedule, one reservation's
 * messages in order.
 */
describe('webhooks: delivered by the job engine, across a restart @db', function () {
  this.timeout(120_000);

  it('delivers after a restart what was enqueued before it, each message once, signed, in order, after a failed first attempt', async () => {
    const receiver = await startReceiver();
    const config = { trustProxy: true, ...webhooksConfig({ allowedNetworks: ['127.0.0.1/32'], retryScheduleSeconds: [1, 1] }) };
    let expected: Array<{ id: string; event_type: string; ordering_key: string }> = [];
    // Before: a process with no workers (it only enqueues), stopped with its jobs still queued.
    const first = await startTestServer({ config });
    try {
      const admin = cookieHeader((await buildMemberSession('admin')).token);
      const endpoint = await createEndpoint(first, admin, { url: receiver.url(), eventTypes: ['inquiry.received', 'reservation.confirmed', 'reservation.cancelled'] });
      receiver.secrets = [endpoint.secret];
      await sendInquiry(first, 1);
      const held = await hold(first, { who: 2 });
      expect((await first.request('POST', `/api/reservations/${held.id}/confirm`, { headers: admin })).status).to.equal(200);
      expect((await first.request('POST', `/api/reservations/${held.id}/cancel`, { headers: admin })).status).to.equal(200);
      expected = await first.db.knex('webhook_messages').orderBy('seq').select('id', 'event_type', 'ordering_key');
      expect(expected.map((m) => m.event_type)).to.deep.equal(['inquiry.received', 'reservation.confirmed', 'reservation.cancelled']);
    } finally {
      await first.close();
    }
    expect(receiver.requests).to.deep.equal([]);

    // After: a new process on the same database, with workers.
    receiver.failFirst = 1;
    const second = await startTestServer({ config, keepData: true, jobs: { workers: true, queues: webhookJobs, pollingIntervalSeconds: 0.5 } });
    try {
      await eventually(() => receiver.delivered().length, { until: (n) => n >= expected.length, timeoutMs: 60_000, intervalMs: 100, what: 'every message delivered' });
      const rows = await eventually(() => second.db.knex('webhook_messages').orderBy('seq'), {
        until: (found) => found.every((m) => m.status === 'SUCCEEDED'),
        timeoutMs: 10_000,
        what: 'the outcomes written',
      });
      expect(rows.map((m) => [m.id, m.attempts])).to.deep.equal(expected.map((m) => [m.id, 2]));
    } finally {
      await second.close();
      await receiver.close();
    }
    // Two requests per message (503, then 200), every one verified by the receiver with the endpoint's secret.
    expect(receiver.requests).to.have.length(expected.length * 2);
    for (const request of receiver.requests) expect(request.verifiedWith, request.id).to.deep.equal([0]);
    expect(receiver.delivered().map((r) => r.id).sort()).to.deep.equal(expected.map((m) => m.id).sort());
    // The reservation's messages in order: nothing of its cancellation before its confirmation was delivered.
    const [confirmed, cancelled] = expected.filter((m) => m.ordering_key.startsWith('reservation:')).map((m) => m.id);
    const firstOfCancelled = receiver.requests.findIndex((r) => r.id === cancelled);
    const confirmedDelivered = receiver.requests.findIndex((r) => r.id === confirmed && r.status === 200);
    expect(confirmedDelivered).to.be.greaterThan(-1).and.lessThan(firstOfCancelled);
  });
});
