import type { operations } from '../../../../sdk/schema.d.ts';
import { hashPassword } from '../../../platform/auth/secrets.ts';
import type { AppContext } from '../../../platform/context.ts';
import { Conflict, ValidationFailed } from '../../../platform/http/problem.ts';
import { inUnitOfWork } from '../../../platform/unitOfWork.ts';
import { Account } from '../models.ts';
import { loginEmail } from '../queries.ts';
import { isUniqueViolation } from '../../../platform/db/uniqueViolation.ts';

export type CreateUserInput = operations['createUser']['requestBody']['content']['application/json'];

/**
 * Creates a dashboard account, named by e-mail or by username (exactly one; a username stands for
 * `<username>@<EMAIL_DOMAIN>`). The e-mail's uniqueness is the unique index's answer (409 `email_taken`).
 */
export async function createUser(app: Pick<AppContext, 'db' | 'config' | 'logger'>, body: CreateUserInput): Promise<Account> {
  if ((body.email === undefined) === (body.username === undefined)) {
    throw ValidationFailed([{ path: 'body/email', message: 'give exactly one of email and username', code: 'oneOf' }]);
  }
  const email = loginEmail((body.email ?? body.username)!, app.config.emailDomain);
  const passwordHash = await hashPassword(body.password); // before the insert: no connection held meanwhile
  try {
    return await inUnitOfWork({ knex: app.db.knex, logger: app.logger }, async ({ trx }) =>
      Account.query(trx).insertAndFetch({ email, name: body.name, passwordHash, role: body.role ?? 'USER', banned: false }),
    );
  } catch (err) {
    if (isUniqueViolation(err)) throw Conflict('email_taken', `An account with ${email} exists.`);
    throw err;
  }
}
