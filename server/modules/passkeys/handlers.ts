import { json, noContent, withCookies, type OperationHandlers } from '../../platform/http/handler.ts';
import { NotFound } from '../../platform/http/problem.ts';
import { Account, presentPrincipal } from '../accounts/index.ts';
import { requireRecentSignIn } from '../auth/index.ts';
import { beginPasskeyRegistration } from './commands/beginPasskeyRegistration.ts';
import { beginPasskeySignIn } from './commands/beginPasskeySignIn.ts';
import { deleteOwnPasskey } from './commands/deleteOwnPasskey.ts';
import { registerPasskey } from './commands/registerPasskey.ts';
import { renameOwnPasskey } from './commands/renameOwnPasskey.ts';
import { revokeUserPasskey } from './commands/revokeUserPasskey.ts';
import { signInWithPasskey } from './commands/signInWithPasskey.ts';
import { presentCreationOptions, presentPasskey, presentPasskeyList, presentRequestOptions } from './presenters.ts';
import { passkeysOf } from './queries.ts';

/**
 * Passkeys (WebAuthn) of dashboard accounts (spec §2.2). The own-passkey operations are `x-access: session`: the
 * caller is a dashboard session, so `auth.identity.accountId` and `sessionId` are set. Adding a passkey (both of its
 * steps) needs a recent sign-in of that session (auth's requireRecentSignIn, 403 `reauthentication_required`).
 */
export const handlers = {
  async beginPasskeyRegistration({ auth, app }) {
    await requireRecentSignIn(auth.identity.sessionId);
    return json(200, presentCreationOptions(await beginPasskeyRegistration(app, auth.identity.accountId!)));
  },

  async registerPasskey({ auth, body, app }) {
    await requireRecentSignIn(auth.identity.sessionId);
    return json(201, presentPasskey(await registerPasskey(app, auth.identity.accountId!, body)));
  },

  async listOwnPasskeys({ auth }) {
    return json(200, presentPasskeyList(await passkeysOf(auth.identity.accountId!)));
  },

  async renameOwnPasskey({ auth, params, body, app }) {
    return json(200, presentPasskey(await renameOwnPasskey(app, auth.identity.accountId!, params.passkeyId, body.label)));
  },

  async deleteOwnPasskey({ auth, params, app }) {
    await deleteOwnPasskey(app, auth.identity.accountId!, params.passkeyId);
    return noContent();
  },

  async beginPasskeySignIn({ app, ip }) {
    return json(200, presentRequestOptions(await beginPasskeySignIn(app, ip)));
  },

  async signInWithPasskey(call) {
    const { body, app, ip, log } = call;
    const { auth, memberships, cookie } = await signInWithPasskey(app, { credential: body.credential, ip, userAgent: call.header('user-agent'), log });
    return withCookies(json(200, presentPrincipal(auth, memberships)), cookie);
  },

  async listUserPasskeys({ params }) {
    if (!(await Account.query().findById(params.userId))) throw NotFound('No account with this id.');
    return json(200, presentPasskeyList(await passkeysOf(params.userId)));
  },

  async revokeUserPasskey({ params, app }) {
    await revokeUserPasskey(app, params.userId, params.passkeyId);
    return noContent();
  },
} satisfies Partial<OperationHandlers>;
