import { NotFound } from '../../platform/http/problem.ts';
import { Passkey } from './models.ts';

/** An account's passkeys, oldest first. */
export async function passkeysOf(accountId: string): Promise<Passkey[]> {
  return Passkey.query().where('account_id', accountId).orderBy([{ column: 'created_at' }, { column: 'id' }]);
}

/** One passkey of one account, or 404 (another account's passkey is as unknown as a missing one). */
export async function findPasskeyOfOrFail(accountId: string, passkeyId: string): Promise<Passkey> {
  const passkey = await Passkey.query().findOne({ id: passkeyId, account_id: accountId });
  if (!passkey) throw NotFound('No passkey with this id.');
  return passkey;
}

/** The passkey a credential id names, with its account; undefined when none (removed, revoked, or its account deleted). */
export async function findByCredentialId(credentialId: string): Promise<Passkey | undefined> {
  return Passkey.query().findOne({ credential_id: credentialId }).withGraphFetched('account');
}
