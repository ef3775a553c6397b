import type { Knex } from 'knex';
import { expect } from 'chai';
import { asSuperuser, cookieHeader, type TestResponse, type TestServer } from './server.ts';

/** Helpers for the account, session and API-key specs (test/accounts, test/cli). */

export const SESSION_COOKIE = 'venue_session';

/** The `venue_session` Set-Cookie line of a response, or undefined. */
export function sessionSetCookie(res: TestResponse): string | undefined {
  return res.headers.getSetCookie().find((line) => line.startsWith(`${SESSION_COOKIE}=`));
}

/** The session token a response set (the cookie value), or undefined. */
export function sessionTokenFrom(res: TestResponse): string | undefined {
  const line = sessionSetCookie(res);
  const value = line?.split(';')[0].slice(SESSION_COOKIE.length + 1);
  return value ? decodeURIComponent(value) : undefined;
}

/** An SDK result as the TestResponse the specs read (status, headers, body). */
function fromSdk(result: { data?: unknown; error?: unknown; response: Response }): TestResponse {
  const body = result.data ?? result.error;
  const text = body === undefined ? '' : JSON.stringify(body);
  return { status: result.response.status, headers: result.response.headers, body, text, bytes: Buffer.from(text) };
}

/** Signs in through the SDK, so every run exercises it. */
export async function signIn(server: TestServer, identifier: string, password: string) {
  const res = fromSdk(await server.client().POST('/api/auth/sign-in', { body: { identifier, password } }));
  return { res, token: sessionTokenFrom(res) };
}

/** Signs in and fails the test unless it worked; returns the cookie token and the principal. */
export async function signInOrFail(server: TestServer, identifier: string, password: string) {
  const { res, token } = await signIn(server, identifier, password);
  expect(res.status, JSON.stringify(res.body)).to.equal(200);
  expect(token).to.be.a('string');
  return { token: token!, principal: res.body };
}

export async function me(server: TestServer, token: string) {
  return fromSdk(await server.client({ headers: cookieHeader(token) }).GET('/api/auth/me'));
}

export async function meWithKey(server: TestServer, key: string) {
  return fromSdk(await server.client({ apiKey: key }).GET('/api/auth/me'));
}

/** Superuser-token request (x-api-token). */
export function sudo(server: TestServer, method: string, path: string, body?: unknown) {
  return server.request(method, path, { headers: asSuperuser, body });
}

export async function countRows(knex: Knex, table: string, where: Record<string, unknown> = {}): Promise<number> {
  const [{ count }] = await knex(table).where(where).count<{ count: string | number }[]>({ count: '*' });
  return Number(count);
}

/** The field paths a problem's `errors[]` names. */
export const errorPaths = (res: TestResponse): string[] => (res.body.errors ?? []).map((e: { path: string }) => e.path);
