import { json, noContent, withCookies, type OperationHandlers } from '../../platform/http/handler.ts';
import { membershipsOf, presentPrincipal } from '../accounts/index.ts';
import { setActiveOrganization } from './commands/setActiveOrganization.ts';
import { signIn } from './commands/signIn.ts';
import { signOut } from './commands/signOut.ts';
import { clearedSessionCookie, sessionTokenHash } from './sessions.ts';

export const handlers = {
  async signIn(call) {
    const { body, app, ip, log } = call;
    const { auth, memberships, cookie } = await signIn(app, { identifier: body.identifier, password: body.password, ip, userAgent: call.header('user-agent'), log });
    return withCookies(json(200, presentPrincipal(auth, memberships)), cookie);
  },

  async signOut(call) {
    await signOut(call.app, sessionTokenHash(call));
    return withCookies(noContent(), clearedSessionCookie(call.app.config.sessionCookie));
  },

  async getCurrentPrincipal({ auth }) {
    const memberships = auth.identity.accountId ? await membershipsOf(auth.identity.accountId) : [];
    return json(200, presentPrincipal(auth, memberships));
  },

  async setActiveOrganization({ auth, body, app }) {
    const identity = { accountId: auth.identity.accountId!, sessionId: auth.identity.sessionId! };
    const { auth: now, memberships } = await setActiveOrganization(app, identity, body.organizationId);
    return json(200, presentPrincipal(now, memberships));
  },
} satisfies Partial<OperationHandlers>;
