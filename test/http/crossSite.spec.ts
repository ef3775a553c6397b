import { expect } from 'chai';
import type { Operation } from '../../server/platform/http/contract.ts';
import { contract } from '../helpers/contract.ts';
import { buildMemberSession } from '../helpers/factories.ts';
import { probeRequest } from '../helpers/identities.ts';
import { asSuperuser, cookieHeader, startTestServer, type TestServer } from '../helpers/server.ts';
import { STUB_HEADER, stubHandlers } from '../helpers/stubs.ts';
import { bookableEvent, contact } from '../modules/booking/factories.ts';
import { guestHold } from '../modules/reservations/helpers.ts';

/**
 * Issue 32 §1: a page on another origin cannot make a signed-in staff member's browser write. A write the session cookie
 * authenticates is accepted only from the API's own origin or a DASHBOARD_ORIGINS one (`Origin`, else `Sec-Fetch-Site`),
 * and only with a body type a page elsewhere cannot send without a CORS preflight.
 */
const DASHBOARD = 'https://dashboard.venue.test';
const EVIL = 'https://evil.example';
const UNSAFE = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const HUMAN = new Set(['session', 'staff', 'admin', 'superuser']);

/** Every unsafe operation a session cookie can reach (x-access session, staff, admin, superuser): walked from the contract. */
const cookieWrites = contract.operations.filter((op) => UNSAFE.has(op.method.toUpperCase()) && HUMAN.has(op.access));
/** Unsafe operations that need no identity: the cookie is set aside there, never used. */
const publicWrites = contract.operations.filter((op) => UNSAFE.has(op.method.toUpperCase()) && op.access === 'public');

describe('cross-site writes with the session cookie (CSRF), every operation from the contract', function () {
  this.timeout(120_000);
  let server: TestServer;
  let owner: Record<string, string>;

  before(async () => {
    // Stub handlers: a call that gets past the checks runs nothing (no migration, no reset), and says so in a header.
    server = await startTestServer({ config: { dashboardOrigins: [DASHBOARD], validateResponses: false }, handlers: stubHandlers(contract) });
    // The owner's session: superuser by membership, so every human level admits it once the cross-site check passes.
    owner = cookieHeader((await buildMemberSession('owner')).token);
  });
  after(() => server.close());

  const call = (op: Operation, headers: Record<string, string>, contentType?: string) => {
    const probe = probeRequest(op);
    const json = probe.body !== undefined && contentType === undefined;
    return server.request(probe.method, probe.path, {
      body: json ? probe.body : undefined,
      rawBody: contentType ? '' : undefined,
      headers: { ...probe.headers, ...(contentType ? { 'content-type': contentType } : {}), ...headers },
      unchecked: true,
    });
  };

  it('walks the writes: the contract has cookie-reachable writes of every human level', () => {
    expect(cookieWrites.length).to.be.greaterThan(80);
    expect(new Set(cookieWrites.map((op) => op.access))).to.deep.equal(new Set(['session', 'staff', 'admin', 'superuser']));
    expect(cookieWrites.map((op) => op.operationId)).to.include.members(['confirmReservation', 'cancelReservation']);
  });

  it('refuses each from a foreign Origin, and with no Origin from a cross-site or same-site page (403 cross_site_request); the handler never runs', async () => {
    const failures: string[] = [];
    for (const op of cookieWrites) {
      for (const [label, headers, type] of [
        ['Origin evil', { origin: EVIL }, undefined],
        ['Origin evil, a form', { origin: EVIL }, 'application/x-www-form-urlencoded'],
        ['Origin null (sandboxed frame)', { origin: 'null' }, 'text/plain'],
        ['no Origin, Sec-Fetch-Site cross-site', { 'sec-fetch-site': 'cross-site' }, undefined],
        ['no Origin, Sec-Fetch-Site same-site (a sibling subdomain)', { 'sec-fetch-site': 'same-site' }, 'application/x-www-form-urlencoded'],
      ] as Array<[string, Record<string, string>, string | undefined]>) {
        const res = await call(op, { ...owner, ...headers }, type);
        if (res.headers.get(STUB_HEADER)) failures.push(`${op.operationId} (${label}): the handler ran`);
        if (res.status !== 403 || res.body?.code !== 'cross_site_request') failures.push(`${op.operationId} (${label}): ${res.status} ${res.body?.code}`);
      }
    }
    expect(failures, failures.join('\n')).to.deep.equal([]);
  });

  it('admits each from a listed dashboard origin and from the API\'s own origin, with a JSON body', async () => {
    const failures: string[] = [];
    for (const op of cookieWrites) {
      for (const headers of [{ origin: DASHBOARD }, { origin: server.baseUrl }, { 'sec-fetch-site': 'same-origin' }, {}] as Array<Record<string, string>>) {
        const res = await call(op, { ...owner, ...headers });
        // Admitted: the stub answers, or validation refuses the probe's minimal input (400) first.
        const admitted = (res.status < 300 && res.headers.get(STUB_HEADER) === op.operationId) || res.status === 400;
        if (!admitted) failures.push(`${op.operationId} (${JSON.stringify(headers)}): ${res.status} ${res.body?.code}`);
      }
    }
    expect(failures, failures.join('\n')).to.deep.equal([]);
  });

  it('refuses form-encoded, text/plain and untyped bodies with the cookie even from a listed origin (415); multipart only where declared', async () => {
    const failures: string[] = [];
    for (const op of cookieWrites) {
      const declaresMultipart = Boolean(op.requestBody?.media['multipart/form-data']);
      for (const type of ['application/x-www-form-urlencoded', 'text/plain', 'text/plain;charset=UTF-8', 'multipart/form-data; boundary=x']) {
        const res = await call(op, { ...owner, origin: DASHBOARD }, type);
        if (type.startsWith('multipart/') && declaresMultipart) {
          if (res.body?.code === 'cross_site_request' || (res.status === 415 && /session cookie/.test(res.body?.detail))) failures.push(`${op.operationId} (${type}): refused though declared`);
          continue;
        }
        if (res.headers.get(STUB_HEADER)) failures.push(`${op.operationId} (${type}): the handler ran`);
        if (res.status !== 415 || res.body?.code !== 'unsupported_media_type') failures.push(`${op.operationId} (${type}): ${res.status} ${res.body?.code}`);
      }
    }
    expect(failures, failures.join('\n')).to.deep.equal([]);
    // A body without any Content-Type (a no-cors fetch of a Blob) is refused too.
    const confirm = contract.operations.find((op) => op.operationId === 'confirmReservation')!;
    const probe = probeRequest(confirm);
    const untyped = await server.request('POST', probe.path, { rawBody: new Uint8Array([123, 125]), headers: { ...owner, origin: DASHBOARD }, unchecked: true });
    expect(untyped.status).to.equal(415);
  });

  it('leaves credentials a browser never sends on its own alone: a superuser token from a foreign origin with a form type is not refused', async () => {
    const failures: string[] = [];
    for (const op of cookieWrites.filter((op) => op.access !== 'session')) {
      const res = await call(op, { ...asSuperuser, origin: EVIL });
      if (res.body?.code === 'cross_site_request') failures.push(`${op.operationId}: ${res.status} ${res.body?.code}`);
    }
    expect(failures, failures.join('\n')).to.deep.equal([]);
  });

  it('public writes go on from any origin, the cookie set aside (the caller is anonymous there)', async () => {
    expect(publicWrites.length).to.be.greaterThan(10);
    const failures: string[] = [];
    for (const op of publicWrites) {
      const res = await call(op, { ...owner, origin: EVIL });
      if (res.body?.code === 'cross_site_request') failures.push(`${op.operationId}: ${res.status} cross_site_request`);
    }
    expect(failures, failures.join('\n')).to.deep.equal([]);
  });
});

describe('cross-site writes: the caller a public write sees', () => {
  let server: TestServer;
  let staff: Record<string, string>;
  before(async () => {
    // One public write answers the auth source it was given; the rest are stubs.
    const handlers = stubHandlers(contract);
    handlers.recordVisit = (call) => ({ status: 204, headers: { 'x-auth-source': call.auth.authSource } });
    server = await startTestServer({ config: { dashboardOrigins: [DASHBOARD], validateResponses: false }, handlers });
    staff = cookieHeader((await buildMemberSession('member')).token);
  });
  after(() => server.close());

  it('is anonymous when the cookie came from a foreign page, and the session when from the dashboard', async () => {
    const visit = (headers: Record<string, string>) =>
      server.request('POST', '/api/system/visit-notification', { body: { path: '/' }, headers: { ...staff, ...headers }, unchecked: true });
    expect((await visit({ origin: EVIL })).headers.get('x-auth-source')).to.equal('anonymous');
    expect((await visit({ 'sec-fetch-site': 'same-site' })).headers.get('x-auth-source')).to.equal('anonymous');
    expect((await visit({ origin: DASHBOARD })).headers.get('x-auth-source')).to.equal('session');
  });
});

describe('cross-site writes: a booking a hostile page tries to change', () => {
  let server: TestServer;
  let staff: Record<string, string>;
  before(async () => {
    server = await startTestServer({ config: { dashboardOrigins: [DASHBOARD], trustProxy: true } });
    staff = cookieHeader((await buildMemberSession('member')).token);
  });
  after(() => server.close());

  const status = async (id: string) => (await server.db.knex('reservations').where({ id }).first('status')).status;

  it('a form POST to confirm or cancel from another page changes nothing; the dashboard still can', async () => {
    const { event, offer } = await bookableEvent();
    const held = await guestHold(server, event, offer, 2, contact(1));
    const other = await guestHold(server, event, offer, 2, contact(2));
    const form = { 'content-type': 'application/x-www-form-urlencoded' };

    for (const [path, headers] of [
      [`/api/reservations/${held}/confirm`, { ...staff, ...form, origin: EVIL }],
      [`/api/reservations/${held}/cancel`, { ...staff, ...form, origin: EVIL }],
      // A sibling subdomain or another localhost port: same site, so SameSite=Lax sends the cookie.
      [`/api/reservations/${held}/cancel`, { ...staff, ...form, origin: 'http://127.0.0.1:1' }],
      [`/api/reservations/${held}/confirm`, { ...staff, ...form, 'sec-fetch-site': 'same-site' }],
    ] as Array<[string, Record<string, string>]>) {
      const res = await server.request('POST', path, { rawBody: '', headers });
      expect(res.status, `${path} ${JSON.stringify(headers)}`).to.equal(403);
      expect(res.body.code).to.equal('cross_site_request');
    }
    // From the dashboard, but as a form or plain text: refused for its body type.
    const plain = await server.request('POST', `/api/reservations/${held}/cancel`, { rawBody: 'reason=x', headers: { ...staff, 'content-type': 'text/plain', origin: DASHBOARD } });
    expect(plain.status).to.equal(415);
    expect(await status(held)).to.equal('HELD');

    // The dashboard, with JSON (and curl, which sends neither Origin nor Sec-Fetch-Site): done.
    const confirmed = await server.request('POST', `/api/reservations/${held}/confirm`, { headers: { ...staff, origin: DASHBOARD } });
    expect(confirmed.status, JSON.stringify(confirmed.body)).to.equal(200);
    expect(await status(held)).to.equal('CONFIRMED');
    const cancelled = await server.request('POST', `/api/reservations/${other}/cancel`, { body: {}, headers: staff });
    expect(cancelled.status, JSON.stringify(cancelled.body)).to.equal(200);
    expect(await status(other)).to.equal('CANCELLED');
  });
});
