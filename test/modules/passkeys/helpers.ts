import { expect } from 'chai';
import { signInOrFail } from '../../helpers/accounts.ts';
import { buildAccount, buildMembership, DEFAULT_PASSWORD } from '../../helpers/factories.ts';
import { cookieHeader, type TestServer } from '../../helpers/server.ts';
import { SoftAuthenticator } from '../../helpers/softAuthenticator.ts';
import type { MemberRole } from '../../../server/platform/auth/roles.ts';

/** Scenario helpers of the passkeys specs: they go through the API, as a dashboard would. */

export const ORIGIN = 'http://localhost:5173';
export const RP_ID = 'localhost';
export const WEBAUTHN = { rpId: RP_ID, rpName: 'Test venue', origins: [ORIGIN], challengeTtlSeconds: 300 };

/** A dashboard account with a membership, signed in with its password: its id and session token. */
export async function staffMember(server: TestServer, role: MemberRole = 'member') {
  const account = await buildAccount();
  await buildMembership(account, role);
  const { token } = await signInOrFail(server, account.email, DEFAULT_PASSWORD);
  return { account, token };
}

export const beginRegistration = (server: TestServer, token: string) =>
  server.request('POST', '/api/auth/passkeys/registration-options', { headers: cookieHeader(token) });

export const finishRegistration = (server: TestServer, token: string, credential: unknown, label?: string) =>
  server.request('POST', '/api/auth/passkeys', { headers: cookieHeader(token), body: { credential, ...(label === undefined ? {} : { label }) } });

/** Registers a new software passkey for the session's account; fails the test unless it was registered. */
export async function registerPasskey(server: TestServer, token: string, options: ConstructorParameters<typeof SoftAuthenticator>[2] = {}, label?: string) {
  const authenticator = new SoftAuthenticator(ORIGIN, RP_ID, options);
  const begun = await beginRegistration(server, token);
  expect(begun.status, begun.text).to.equal(200);
  const res = await finishRegistration(server, token, authenticator.register(begun.body), label);
  expect(res.status, res.text).to.equal(201);
  return { authenticator, passkey: res.body };
}

export const beginSignIn = (server: TestServer, headers: Record<string, string> = {}) =>
  server.request('POST', '/api/auth/passkey-sign-in/options', { headers });

export const finishSignIn = (server: TestServer, credential: unknown, headers: Record<string, string> = {}) =>
  server.request('POST', '/api/auth/passkey-sign-in', { body: { credential }, headers });

/** Begins a sign-in and answers it with the authenticator (bent by `overrides`). */
export async function signInWith(server: TestServer, authenticator: SoftAuthenticator, overrides: Parameters<SoftAuthenticator['assert']>[1] = {}) {
  const begun = await beginSignIn(server);
  expect(begun.status, begun.text).to.equal(200);
  const credential = authenticator.assert(begun.body, overrides);
  return { res: await finishSignIn(server, credential), credential, options: begun.body };
}
