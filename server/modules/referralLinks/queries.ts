import { randomBytes } from 'node:crypto';
import type { Knex } from 'knex';
import { NotFound } from '../../platform/http/problem.ts';
import { ReferralLink, ReferralSigningKey } from './models.ts';

/**
 * Reads of referral links (issue 12), and the module's set-based statements: the click counter's upsert and the
 * signing key's first-use insert (both `on conflict`, called from commands only).
 */

/** A link with its code (`link.code`, eager-loaded), or 404. */
export async function findLinkOrFail(id: string, trx?: Knex): Promise<ReferralLink> {
  const link = await ReferralLink.query(trx).findById(id).withGraphFetched('code');
  if (!link) throw NotFound('No such referral link.');
  return link;
}

export async function listLinks(filters: { partnerId?: string; status?: string; channel?: string; limit: number; offset: number }) {
  const base = ReferralLink.query().modify((q) => {
    if (filters.partnerId) q.where('partner_id', filters.partnerId);
    if (filters.status) q.where('status', filters.status);
    if (filters.channel) q.where('channel', filters.channel);
  });
  const total = await base.clone().resultSize();
  const items = await base.clone().withGraphFetched('code').orderBy('created_at', 'desc').orderBy('id', 'desc').limit(filters.limit).offset(filters.offset);
  return { items, total };
}

/** Counts one click of the link in the hour of `now` (one counter row per link and hour: nothing about the visitor). */
export async function countClick(trx: Knex, linkId: string, now: Date): Promise<void> {
  await trx.raw(
    `insert into referral_clicks (link_id, bucket, click_count) values (?, date_trunc('hour', ?::timestamptz), 1)
     on conflict (link_id, bucket) do update set click_count = referral_clicks.click_count + 1`,
    [linkId, now.toISOString()],
  );
}

/** The database's attribution signing key, made on first use (concurrent first uses agree on one). */
export async function signingKey(knex: Knex): Promise<Buffer> {
  const existing = await ReferralSigningKey.query(knex).findById(1).select('secret');
  if (existing) return Buffer.from(existing.secret);
  await knex.raw('insert into referral_signing_keys (id, secret) values (1, ?) on conflict (id) do nothing', [randomBytes(32)]);
  const made = await ReferralSigningKey.query(knex).findById(1).select('secret');
  return Buffer.from(made!.secret);
}
