import type { Knex } from 'knex';
import type { AppContext } from '../../platform/context.ts';
import { addressKey, consumeOrThrow, RateLimit, rateLimitStoreFor } from '../../platform/http/rateLimit.ts';
import { Conflict, NotFound, Unprocessable } from '../../platform/http/problem.ts';
import { isUniqueViolation } from '../referralPartners/index.ts';
import { signAttribution, ATTRIBUTION_TTL_DAYS } from './tokens.ts';

/**
 * Referral links (issue 12): a partner's friendly `/go/{slug}` links. The slug is unique by an index (an explicit
 * duplicate is 409 `slug_taken`, also between concurrent requests); the destination is a public site route.
 * Resolving counts a click (link × hour, nothing about the visitor) and hands out the signed attribution the
 * booking carries (tokens.ts; applied by attribution.ts).
 */

export const CHANNELS = ['QR_STICKER', 'INFLUENCER', 'BAR', 'WEBSITE', 'SOCIAL'] as const;
export type Channel = (typeof CHANNELS)[number];

export interface LinkRow {
  id: string;
  slug: string;
  destination: string;
  channel: Channel;
  label: string | null;
  status: 'ACTIVE' | 'PAUSED' | 'ARCHIVED';
  partner_id: string;
  code_id: string | null;
  code: string | null;
  sticker_blob_id: string | null;
  sticker_url: string | null;
  created_at: Date;
  updated_at: Date;
}

export interface LinkInput {
  partnerId?: string;
  codeId?: string | null;
  slug?: string;
  destination?: string;
  channel?: Channel;
  label?: string | null;
  status?: LinkRow['status'];
}

// ---- destinations -------------------------------------------------------------------------------------------

/** The public site's routes a link may lead to (after an optional locale prefix). */
const ROUTES = [/^\/$/, /^\/shows$/, /^\/shows\/[a-z0-9]+(-[a-z0-9]+)*$/, /^\/book\/[a-z0-9]+(-[a-z0-9]+)*$/, /^\/inquiries$/, /^\/waitlist$/, /^\/partners$/];

const InvalidDestination = (detail: string) => Unprocessable('invalid_destination', detail, [{ path: 'body/destination', message: detail, code: 'invalid_destination' }]);

/**
 * A destination as stored: a site path (`/shows/saigon-nights`, `/vi/book/…`), from a path or an absolute URL on
 * PUBLIC_SITE_URL's host. Outside hosts, other routes, queries and fragments are 422 `invalid_destination`.
 */
export function normalizeDestination(raw: string, config: { publicSiteUrl: string; siteLocales: string[] }): string {
  let path = raw.trim();
  if (!path.startsWith('/')) {
    let url: URL;
    try {
      url = new URL(path);
    } catch {
      throw InvalidDestination('must be a public site path such as /shows, or a URL on the public site');
    }
    const site = new URL(config.publicSiteUrl);
    if (url.protocol !== site.protocol || url.host !== site.host || url.username || url.password) throw InvalidDestination('must be on the public site');
    if (url.search || url.hash) throw InvalidDestination('must not carry a query or fragment');
    path = url.pathname;
  } else if (path.startsWith('//') || /[?#\\]/.test(path)) {
    throw InvalidDestination('must be a plain site path');
  }
  if (path.length > 1) path = path.replace(/\/+$/, '');
  const segments = path.split('/');
  const rest = segments.length > 1 && config.siteLocales.includes(segments[1]) ? `/${segments.slice(2).join('/')}` : path;
  if (!ROUTES.some((route) => route.test(rest))) throw InvalidDestination('is not a public site route (/, /shows, /shows/{slug}, /book/{eventSlug}, /inquiries, /waitlist, /partners)');
  return path;
}

/** The destination, absolute and locale-prefixed (a stored locale prefix wins over the guest's locale). */
export function absoluteDestination(path: string, locale: string, config: { publicSiteUrl: string; siteLocales: string[] }): string {
  const first = path.split('/')[1];
  const localized = config.siteLocales.includes(first) ? path : `/${locale}${path === '/' ? '' : path}`;
  return `${config.publicSiteUrl}${localized}`;
}

// ---- admin --------------------------------------------------------------------------------------------------

const SlugTaken = () => Conflict('slug_taken', 'Another referral link has this slug.');
const SLUG_INDEX = 'referral_links_slug_unique';
const CHANNEL_WORD: Record<Channel, string> = { QR_STICKER: 'qr', INFLUENCER: 'influencer', BAR: 'bar', WEBSITE: 'web', SOCIAL: 'social' };

async function partnerCode(knex: Knex, partnerId: string, codeId: string | null | undefined): Promise<string | null> {
  if (!codeId) return null;
  const code = await knex('referral_codes').where({ id: codeId, partner_id: partnerId, status: 'ACTIVE' }).first('id');
  if (!code) throw Unprocessable('invalid_code', "Not one of the partner's active codes.", [{ path: 'body/codeId', message: "is not an active code of the partner", code: 'invalid_code' }]);
  return code.id;
}

export async function createLink(knex: Knex, input: LinkInput, config: { publicSiteUrl: string; siteLocales: string[] }): Promise<LinkRow> {
  const partner = await knex('referral_partners').where({ id: input.partnerId }).first('id', 'public_slug');
  if (!partner) throw Unprocessable('unknown_partner', 'No such referral partner.', [{ path: 'body/partnerId', message: 'is not a partner', code: 'unknown_partner' }]);
  const codeId = await partnerCode(knex, partner.id, input.codeId);
  const destination = normalizeDestination(input.destination ?? '/', config);
  const base = `${partner.public_slug.slice(0, 45).replace(/-+$/, '')}-${CHANNEL_WORD[input.channel!]}`;
  for (let attempt = 0; ; attempt++) {
    const slug = input.slug ?? (attempt === 0 ? base : `${base}-${attempt + 1}`);
    try {
      const [row] = await knex('referral_links')
        .insert({ slug, destination, channel: input.channel, label: input.label ?? null, partner_id: partner.id, code_id: codeId })
        .returning('id');
      return findLinkOrFail(knex, row.id);
    } catch (err) {
      if (!isUniqueViolation(err, SLUG_INDEX)) throw err;
      if (input.slug !== undefined || attempt >= 50) throw SlugTaken();
    }
  }
}

export async function findLinkOrFail(knex: Knex, id: string): Promise<LinkRow> {
  const row = await knex('referral_links as l').leftJoin('referral_codes as c', 'c.id', 'l.code_id').where('l.id', id).first('l.*', 'c.code');
  if (!row) throw NotFound('No such referral link.');
  return row;
}

export async function updateLink(knex: Knex, id: string, input: LinkInput, config: { publicSiteUrl: string; siteLocales: string[] }): Promise<LinkRow> {
  await findLinkOrFail(knex, id);
  const changes: Record<string, unknown> = { updated_at: knex.fn.now() };
  if (input.slug !== undefined) changes.slug = input.slug;
  if (input.destination !== undefined) changes.destination = normalizeDestination(input.destination, config);
  if (input.channel !== undefined) changes.channel = input.channel;
  if (input.label !== undefined) changes.label = input.label;
  if (input.status !== undefined) changes.status = input.status;
  try {
    await knex('referral_links').where({ id }).update(changes);
  } catch (err) {
    if (isUniqueViolation(err, SLUG_INDEX)) throw SlugTaken();
    throw err;
  }
  return findLinkOrFail(knex, id);
}

export async function listLinks(knex: Knex, filters: { partnerId?: string; status?: string; channel?: string; limit: number; offset: number }) {
  const base = knex('referral_links as l').modify((q) => {
    if (filters.partnerId) q.where('l.partner_id', filters.partnerId);
    if (filters.status) q.where('l.status', filters.status);
    if (filters.channel) q.where('l.channel', filters.channel);
  });
  const [{ count }] = await base.clone().count<Array<{ count: string }>>('* as count');
  const items: LinkRow[] = await base
    .clone()
    .leftJoin('referral_codes as c', 'c.id', 'l.code_id')
    .orderBy([{ column: 'l.created_at', order: 'desc' }, { column: 'l.id', order: 'desc' }])
    .limit(filters.limit)
    .offset(filters.offset)
    .select('l.*', 'c.code');
  return { items, total: Number(count) };
}

// ---- resolving /go/{slug} -------------------------------------------------------------------------------------

const limits = new WeakMap<AppContext, RateLimit>();

/** Resolutions: 60 per client address per minute. */
function resolveLimit(app: AppContext): RateLimit {
  let limit = limits.get(app);
  if (!limit) {
    limit = new RateLimit({ name: 'referral-resolve-address', points: 60, windowSeconds: 60 }, rateLimitStoreFor(app.db));
    limits.set(app, limit);
  }
  return limit;
}

export async function resolveLink(app: AppContext, ip: string, slug: string, requestedLocale: string | undefined, now = new Date()) {
  await consumeOrThrow([[resolveLimit(app), addressKey(ip)]], 'Too many link resolutions from this address; try again later.');
  const { siteLocales, defaultLocale, publicSiteUrl } = app.config;
  const knex = app.db.knex;
  const link = await knex('referral_links as l')
    .join('referral_partners as p', 'p.id', 'l.partner_id')
    .leftJoin('referral_codes as c', function () {
      this.on('c.id', '=', 'l.code_id').andOn(knex.raw("c.status = 'ACTIVE'"));
    })
    .where({ 'l.slug': slug, 'l.status': 'ACTIVE', 'p.status': 'ACTIVE' })
    .first('l.id', 'l.slug', 'l.destination', 'l.partner_id', 'p.public_slug', 'c.id as code_id', 'c.code');
  if (!link) throw NotFound('No such link.');
  // One counter row per link and hour: nothing about the visitor.
  await knex.raw(
    `insert into referral_clicks (link_id, bucket, click_count) values (?, date_trunc('hour', ?::timestamptz), 1)
     on conflict (link_id, bucket) do update set click_count = referral_clicks.click_count + 1`,
    [link.id, now.toISOString()],
  );
  const locale = requestedLocale && siteLocales.includes(requestedLocale) ? requestedLocale : defaultLocale;
  const expiresAt = new Date(now.getTime() + ATTRIBUTION_TTL_DAYS * 86_400_000);
  const token = await signAttribution(knex, { linkId: link.id, codeId: link.code_id ?? null, partnerId: link.partner_id, expiresAt });
  return {
    destination: absoluteDestination(link.destination, locale, { publicSiteUrl, siteLocales }),
    attribution: { code: link.code ?? null, linkSlug: link.slug, partnerSlug: link.public_slug, token, expiresAt: expiresAt.toISOString() },
  };
}
