import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { loadConfig } from '../../server/platform/config.ts';
import { productionRefusals } from '../../server/platform/guardRails.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';

/**
 * Rotating a shared secret without an outage (docs/security.md#rotating-secrets): the token settings accept several
 * comma-separated values, the new one and the old one, until every caller has the new one.
 */
const NEW = '4be1c9f07a2d86e35b1f0c7a9e2d4b6f81a3c5e7';
const OLD = 'd07f3a9c15e8b2640a7c9e1f3b5d7a2c4e6f8091';
const METRICS = loadConfig({ METRICS_TOKEN: `${NEW},${OLD}` });

describe('shared secrets rotate with an overlap (comma-separated values)', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer({ config: { accessTokens: { 'chat-webhook-token': `${NEW}, ${OLD}`, 'metrics-token': `${NEW},${OLD}` }, metrics: METRICS.metrics } });
  });
  after(() => server.close());

  it('accepts the new and the old webhook token, and nothing else', async () => {
    const turn = (token: string) => server.request('POST', '/llm/chat-platform', { headers: { 'x-svc-chat-token': token }, body: { channel: 'messenger', last_input_text: 'hi' } });
    expect((await turn(NEW)).status).to.equal(200);
    expect((await turn(OLD)).status).to.equal(200);
    expect((await turn(`${NEW},${OLD}`)).status).to.equal(401);
    expect((await turn('a-third-value-nobody-was-given-0123456789')).status).to.equal(401);
  });

  it('accepts either metrics token', async () => {
    for (const token of [NEW, OLD]) expect((await server.request('GET', '/metrics', { headers: { authorization: `Bearer ${token}` }, unchecked: true })).status).to.equal(200);
    expect((await server.request('GET', '/metrics', { headers: { authorization: 'Bearer nope' }, unchecked: true })).status).to.equal(401);
  });

  it('production checks every listed value, naming its position', () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'venue-rotation-'));
    try {
      const config = loadConfig({ NODE_ENV: 'production', DATA_DIR: dataDir, SUPERUSER_API_TOKENS: NEW, CHAT_WEBHOOK_TOKEN: `${NEW},short` });
      expect(productionRefusals(config)).to.deep.equal([
        'CHAT_WEBHOOK_TOKEN (value 2 of 2): the secret is 5 characters long; use at least 32; set a random value of at least 32 characters (openssl rand -hex 32)',
      ]);
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
