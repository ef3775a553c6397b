import type { operations } from '../../../../sdk/schema.d.ts';
import { hashPassword } from '../../../platform/auth/secrets.ts';
import type { Actor } from '../../../domain/actors.ts';
import { publish } from '../../../domain/events.ts';
import type { AppContext } from '../../../platform/context.ts';
import { Conflict, ValidationFailed, type FieldError } from '../../../platform/http/problem.ts';
import { inUnitOfWork } from '../../../platform/unitOfWork.ts';
import { Account } from '../models.ts';
import { findAccountOrFail, loginEmail } from '../queries.ts';
import { isUniqueViolation } from '../../../platform/db/uniqueViolation.ts';

export type UpdateUserInput = operations['updateUser']['requestBody']['content']['application/json'];

/**
 * Updates an account (profile, account role, password, ban) in one transaction. A ban or a new password
 * publishes `account.signInRevoked`, whose in-transaction subscribers end the account's sessions (the auth module,
 * which owns them) and then remove its passkeys (issue 32 §4.2: a passkey added from a stolen session must not
 * outlive the reset meant to lock its holder out); every process forgets the account's API keys once it commits (a role
 * change or a ban decides whether they work; server/platform/auth/apiKeyCredentials.ts `changed`).
 */
export async function updateUser(app: AppContext, actor: Actor, accountId: string, body: UpdateUserInput): Promise<Account> {
  // scrypt takes tens of milliseconds: done before the transaction, which then holds its connection (and,
  // on PGlite, the only one) for the writes alone.
  const passwordHash = body.password !== undefined ? await hashPassword(body.password) : undefined;
  const updated = await inUnitOfWork({ knex: app.db.knex, logger: app.logger }, async ({ trx, now, afterCommit }) => {
    const account = await findAccountOrFail(accountId, trx);
    const banning = body.banned ?? account.isBanned();
    const errors: FieldError[] = [];
    for (const field of ['banReason', 'banExpiresAt'] as const) {
      if (body[field] !== undefined && body[field] !== null && !banning) {
        errors.push({ path: `body/${field}`, message: 'only with banned: true', code: 'dependentRequired' });
      }
    }
    if (body.banExpiresAt && new Date(body.banExpiresAt) <= new Date()) {
      errors.push({ path: 'body/banExpiresAt', message: 'must be in the future', code: 'minimum' });
    }
    if (errors.length) throw ValidationFailed(errors);

    const patch: Partial<Account> = {};
    if (body.email !== undefined) patch.email = loginEmail(body.email, app.config.emailDomain);
    if (body.name !== undefined) patch.name = body.name;
    if (body.role !== undefined) patch.role = body.role;
    if (passwordHash !== undefined) patch.passwordHash = passwordHash;
    if (body.banned === false) Object.assign(patch, { banned: false, banReason: null, banExpiresAt: null });
    if (banning && (body.banned === true || body.banReason !== undefined || body.banExpiresAt !== undefined)) {
      patch.banned = true;
      // A new ban (none in force) starts clean: an expired ban's reason and expiry must not carry over.
      const fresh = !account.isBanned();
      if (body.banReason !== undefined || fresh) patch.banReason = body.banReason ?? null;
      if (body.banExpiresAt !== undefined || fresh) patch.banExpiresAt = body.banExpiresAt ? new Date(body.banExpiresAt) : null;
    }
    try {
      const row = await Account.query(trx).patchAndFetchById(account.id, patch);
      // A ban or a new password ends every open session of the account, and takes its passkeys with them (the
      // event's in-transaction subscribers: auth's, then passkeys').
      if (body.banned === true || body.password !== undefined) {
        await publish({ trx, app, actor, now, afterCommit }, 'account.signInRevoked', { accountId: account.id, reason: body.banned === true ? 'ban' : 'password' });
      }
      // A role change or a ban decides whether the account's API keys still work: every process forgets them
      // once this commits (the channel carries it to the others).
      await app.credentials.changed({ accountId: account.id }, trx);
      return row;
    } catch (err) {
      if (isUniqueViolation(err)) throw Conflict('email_taken', `An account with ${patch.email} exists.`);
      throw err;
    }
  });
  return updated;
}
