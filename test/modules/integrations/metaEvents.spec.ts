import { expect } from 'chai';
import { apiKeyWith, catalogSpec } from '../shows/catalog.ts';

/** GET /api/integration/meta/conversions-api-events (issue 11): the audit of Meta send attempts, Admin+. */
describe('integrations: Meta Conversions API audit', () => {
  const spec = catalogSpec();
  const admin = () => spec.as(spec.callers.admin);
  const PATH = '/api/integration/meta/conversions-api-events';

  before(async () => {
    const base = new Date('2026-11-20T10:00:00.000Z').getTime();
    const row = (i: number, fields: Record<string, unknown>) => ({
      event_name: 'ViewContent',
      event_id: `evt-${i}`,
      source: 'BROWSER',
      status: 'SENT',
      http_status: 200,
      fbtrace_id: `TR${i}`,
      events_received: 1,
      error_message: null,
      attempt: 1,
      started_at: new Date(base + i * 60_000),
      finished_at: new Date(base + i * 60_000 + 250),
      created_at: new Date(base + i * 60_000 + 251),
      ...fields,
    });
    await spec.server.db.knex('meta_capi_events').insert([
      row(1, {}),
      row(2, { event_name: 'Purchase', event_id: 'VN-7K2M9Q', source: 'SERVER', status: 'RETRYING', http_status: 503, events_received: null, error_message: 'Service unavailable' }),
      row(3, { event_name: 'Purchase', event_id: 'VN-7K2M9Q', source: 'SERVER', attempt: 2 }),
      row(4, { event_name: 'Lead', source: 'SERVER', status: 'FAILED', http_status: 400, events_received: null, error_message: 'Invalid parameter' }),
      row(5, { event_name: 'Contact' }),
    ]);
  });

  it('is for admins: 401 anonymous, 403 staff, 200 admin, superuser and an API key with meta-conversions:read', async () => {
    expect((await spec.as({}).get(PATH)).status).to.equal(401);
    expect((await spec.as(spec.callers.staff).get(PATH)).status).to.equal(403);
    expect((await admin().get(PATH)).status).to.equal(200);
    expect((await spec.as(spec.callers.superuser).get(PATH)).status).to.equal(200);
    expect((await spec.as(await apiKeyWith('meta-conversions:read')).get(PATH)).status).to.equal(200);
    expect((await spec.as(await apiKeyWith('analytics:read')).get(PATH)).status).to.equal(403);
  });

  it('lists newest first with paging, every audited field and nothing else', async () => {
    const page = await admin().get(`${PATH}?limit=2&offset=1`);
    expect(page.body.total).to.equal(5);
    expect(page.body.limit).to.equal(2);
    expect(page.body.offset).to.equal(1);
    expect(page.body.items.map((i: { eventId: string }) => i.eventId)).to.deep.equal(['evt-4', 'VN-7K2M9Q']);
    expect(page.body.items[1]).to.deep.include({
      eventName: 'Purchase',
      source: 'SERVER',
      status: 'SENT',
      httpStatus: 200,
      fbtraceId: 'TR3',
      eventsReceived: 1,
      errorMessage: null,
      attempt: 2,
      startedAt: '2026-11-20T10:03:00.000Z',
      finishedAt: '2026-11-20T10:03:00.250Z',
      createdAt: '2026-11-20T10:03:00.251Z',
    });
    expect(Object.keys(page.body.items[0]).sort()).to.deep.equal(
      ['id', 'eventName', 'eventId', 'source', 'status', 'httpStatus', 'fbtraceId', 'eventsReceived', 'errorMessage', 'attempt', 'startedAt', 'finishedAt', 'createdAt'].sort(),
    );
  });

  it('filters by event name, event id, source, status and a creation window', async () => {
    const ids = async (query: string) => (await admin().get(`${PATH}?${query}`)).body.items.map((i: { eventId: string; attempt: number }) => `${i.eventId}#${i.attempt}`);
    expect(await ids('eventName=Purchase')).to.deep.equal(['VN-7K2M9Q#2', 'VN-7K2M9Q#1']);
    expect(await ids('eventId=VN-7K2M9Q&status=RETRYING')).to.deep.equal(['VN-7K2M9Q#1']);
    expect(await ids('source=SERVER&status=FAILED')).to.deep.equal(['evt-4#1']);
    expect(await ids('source=BROWSER')).to.deep.equal(['evt-5#1', 'evt-1#1']);
    expect(await ids('createdFrom=2026-11-20T10:02:00.000Z&createdTo=2026-11-20T10:04:00.251Z')).to.deep.equal(['VN-7K2M9Q#2', 'VN-7K2M9Q#1']);
    expect((await admin().get(`${PATH}?eventName=Nothing`)).body).to.deep.include({ items: [], total: 0 });
    const bad = await admin().get(`${PATH}?status=DONE`);
    expect(bad.status).to.equal(400);
    expect(bad.body.errors[0].path).to.equal('query/status');
    expect((await admin().get(`${PATH}?createdFrom=yesterday`)).status).to.equal(400);
  });
});
