import { randomUUID } from 'node:crypto';
import { createRequire } from 'node:module';
import { expect } from 'chai';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { loadConfig, type Config } from '../../../server/platform/config.ts';
import { deliverWebhookMessage, type WebhookDeliveryOutcome } from '../../../server/modules/webhooks/commands/deliverWebhookMessage.ts';
import { WEBHOOK_EVENT_TYPES } from '../../../server/modules/webhooks/eventTypes.ts';
import { WEBHOOK_DELIVER_QUEUE } from '../../../server/modules/webhooks/queues.ts';
import { contract } from '../../helpers/contract.ts';
export { sample } from '../../helpers/metrics.ts';
import type { TestServer } from '../../helpers/server.ts';
import { requestsAs } from '../shows/catalog.ts';

export const ALL_TYPES = [...WEBHOOK_EVENT_TYPES];
export const METRICS_TOKEN = 'webhooks-spec-metrics-token-0123456789';

/** The webhooks part of a test configuration: the defaults, with `overrides` (e.g. the receiver's network allowed). */
export function webhooksConfig(overrides: Partial<Config['webhooks']> = {}): Pick<Config, 'webhooks'> {
  return { webhooks: { ...loadConfig({ NODE_ENV: 'test' }).webhooks, ...overrides } };
}

/** Metrics on, behind METRICS_TOKEN (as loadConfig derives them). */
export function metricsOn(): Pick<Config, 'metrics' | 'accessTokens'> {
  const loaded = loadConfig({ NODE_ENV: 'test', METRICS_TOKEN });
  return { metrics: loaded.metrics, accessTokens: loaded.accessTokens };
}

export async function scrape(server: TestServer): Promise<string> {
  const res = await server.request<string>('GET', '/metrics', { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
  expect(res.status, res.text).to.equal(200);
  return res.body;
}

/**
 * Runs the `webhooks.deliver` jobs that are due, as the job engine's workers would, one at a time (each job taken off
 * the queue first), until none is left; with `advance`, every queued one whatever its `startAfter`, earliest first:
 * time moving on to each retry; with `max`, at most that many. Answers the outcomes in order. The engine itself
 * delivers in restart.spec.ts.
 */
export async function runDeliveries(server: TestServer, options: { advance?: boolean; max?: number } = {}): Promise<WebhookDeliveryOutcome[]> {
  const knex = server.db.knex;
  const outcomes: WebhookDeliveryOutcome[] = [];
  for (let run = 0; run < (options.max ?? 500); run++) {
    const due = options.advance ? '' : 'and start_after <= now()';
    const { rows } = (await knex.raw(
      `select id, data from pgboss.job where name = ? and state in ('created', 'retry') ${due} order by start_after, created_on limit 1`,
      [WEBHOOK_DELIVER_QUEUE],
    )) as { rows: Array<{ id: string; data: { messageId: string } }> };
    if (!rows.length) return outcomes;
    await knex.raw('delete from pgboss.job where id = ?', [rows[0].id]);
    outcomes.push(await deliverWebhookMessage(server.app.context, rows[0].data.messageId));
  }
  if (options.max === undefined) throw new Error('runDeliveries: still delivering after 500 runs');
  return outcomes;
}

/** The delivery jobs queued now (their message ids and when they may run). */
export async function queuedDeliveries(server: TestServer): Promise<Array<{ messageId: string; startAfter: Date }>> {
  const { rows } = (await server.db.knex.raw(`select data, start_after from pgboss.job where name = ? and state in ('created', 'retry') order by start_after`, [WEBHOOK_DELIVER_QUEUE])) as {
    rows: Array<{ data: { messageId: string }; start_after: Date }>;
  };
  return rows.map((row) => ({ messageId: row.data.messageId, startAfter: new Date(row.start_after) }));
}

/** A validator of the contract's `WebhookEvent` (any body the venue sends). */
export function webhookEventValidator() {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  const addFormats = createRequire(import.meta.url)('ajv-formats') as (ajv: Ajv2020) => void;
  addFormats(ajv);
  ajv.addSchema(structuredClone(contract.document), 'contract');
  return ajv.compile({ $ref: 'contract#/components/schemas/WebhookEvent' });
}

/** Registers an endpoint as `headers`; answers its id and secret. */
export async function createEndpoint(server: TestServer, headers: Record<string, string>, body: Record<string, unknown>): Promise<{ id: string; secret: string }> {
  const res = await requestsAs(server, headers).post('/api/webhooks/endpoints', body);
  expect(res.status, JSON.stringify(res.body)).to.equal(201);
  return { id: res.body.endpoint.id, secret: res.body.secret };
}

/** A public inquiry (the `inquiry.received` event), from a fresh client address. */
export async function sendInquiry(server: TestServer, n: number) {
  const res = await server.request<any>('POST', '/api/inquiries', {
    headers: { 'x-forwarded-for': `203.0.113.${n % 250}` },
    body: { type: 'GROUP_BOOKING', name: `Inquirer ${n}`, email: `inquirer${n}@example.com`, phone: '+84 91 555 0101', message: 'A table for twelve, please.', guestCount: 12, preferredDate: '2027-02-14' },
  });
  expect(res.status, JSON.stringify(res.body)).to.equal(201);
  const row = await server.db.knex('inquiries').where({ email: `inquirer${n}@example.com` }).orderBy('created_at', 'desc').first('id');
  return row.id as string;
}

export const nonce = () => `n-${randomUUID()}`;
