import type { Knex } from 'knex';
import { DateTime } from 'luxon';
import type { AppContext, PlatformContext } from '../../platform/context.ts';
import { addressKey, consumeOrThrow, RateLimit } from '../../platform/rateLimit.ts';
import type { Logger } from '../../platform/logger.ts';
import { VisitCounter } from './models.ts';
import type { Schema } from '../../platform/http/handler.ts';

/**
 * Aggregate visit counters (spec §2.3, §4.4, §8.2 item 2): one row per local day and one per ISO week
 * (VENUE_TIMEZONE). A visit increments both with one `insert … on conflict do update` each, in one transaction
 * (one statement, `VISIT_UPSERT`): concurrent visits queue on the row lock, none is lost. Nothing about the
 * visitor is stored: the path, referrer, user agent, address and country only format the optional webhook
 * notification, sent from memory.
 */

export interface VisitBuckets {
  day: string;
  week: string;
}

export function visitBuckets(now: Date, zone: string): VisitBuckets {
  const local = DateTime.fromJSDate(now, { zone });
  return { day: local.toISODate()!, week: `${local.weekYear}-W${String(local.weekNumber).padStart(2, '0')}` };
}

export { VISIT_UPSERT } from './queries.ts';

export async function visitStats(knex: Knex, now: Date, zone: string): Promise<Schema<'VisitStats'>> {
  const current = visitBuckets(now, zone);
  const local = DateTime.fromJSDate(now, { zone });
  const previous = visitBuckets(local.minus({ days: 1 }).toJSDate(), zone);
  const lastWeek = visitBuckets(local.minus({ weeks: 1 }).toJSDate(), zone);
  const rows = await VisitCounter.query(knex)
    .where((q) => q.where({ bucket_type: 'DAY' }).whereIn('bucket_key', [current.day, previous.day]))
    .orWhere((q) => q.where({ bucket_type: 'WEEK' }).whereIn('bucket_key', [current.week, lastWeek.week]))
    .select('bucket_type', 'bucket_key', 'visit_count');
  const count = (type: string, key: string) => ({ key, count: Number(rows.find((r) => r.bucketType === type && r.bucketKey === key)?.visitCount ?? 0) });
  return {
    timezone: zone,
    today: count('DAY', current.day),
    yesterday: count('DAY', previous.day),
    thisWeek: count('WEEK', current.week),
    lastWeek: count('WEEK', lastWeek.week),
  };
}

export interface VisitNotice {
  path: string;
  referrer?: string;
  userAgent: string;
  ip: string;
  country?: string;
}

/** The notification's text (Slack reads `text`, Discord `content`). */
export function noticeText(notice: VisitNotice, buckets: VisitBuckets): string {
  const clip = (value: string, max: number) => (value.length > max ? `${value.slice(0, max)}…` : value);
  return [
    `New visit: ${clip(notice.path, 200)}`,
    `Referrer: ${notice.referrer ? clip(notice.referrer, 200) : '(none)'}`,
    `From: ${notice.ip}${notice.country ? ` (${notice.country})` : ''}`,
    `Agent: ${clip(notice.userAgent || '(none)', 200)}`,
    `Day ${buckets.day}, week ${buckets.week}`,
  ].join('\n');
}

/**
 * Best-effort visit notifications, from memory only: at most `maxPending` in flight; a visit beyond that is not
 * notified (dropped and counted), never queued durably, so no visitor detail reaches a disk. A failed post is
 * logged without the visitor's details.
 */
export class VisitNotifier {
  private pending = 0;
  private readonly inflight = new Set<Promise<void>>();
  dropped = 0;
  sent = 0;
  failed = 0;

  constructor(
    private readonly options: { url: string | undefined; timeoutMs: number; maxPending: number },
    private readonly log: Logger,
  ) {}

  get enabled(): boolean {
    return Boolean(this.options.url);
  }

  notify(text: string): void {
    if (!this.options.url) return;
    if (this.pending >= this.options.maxPending) {
      this.dropped++;
      return;
    }
    this.pending++;
    const post = fetch(this.options.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ text, content: text }),
      signal: AbortSignal.timeout(this.options.timeoutMs),
    })
      .then(async (response) => {
        await response.arrayBuffer().catch(() => undefined);
        if (response.ok) this.sent++;
        else {
          this.failed++;
          this.log.warn({ status: response.status }, 'visit notification refused');
        }
      })
      .catch((err: Error) => {
        this.failed++;
        this.log.warn({ error: err.name }, 'visit notification failed');
      })
      .finally(() => {
        this.pending--;
        this.inflight.delete(post);
      });
    this.inflight.add(post);
  }

  /** Resolves once every notification under way has ended (tests, shutdown). */
  async idle(): Promise<void> {
    while (this.inflight.size) await Promise.allSettled([...this.inflight]);
  }
}

export interface VisitServices {
  limit: RateLimit;
  notifier: VisitNotifier;
}

declare module '../../platform/context.ts' {
  interface AppContext {
    /** The visit counter's rate limit and notifier (the system module). */
    visits: VisitServices;
  }
}

/**
 * The visit rate limit (VISIT_RATE_LIMIT_PER_MINUTE per address) and notifier of a running app (the module's
 * record's `services`). The limit is counted in this process's memory, also on PostgreSQL: a visit is the busiest
 * public write and its limit a coarse guard against a flood (not a security budget like sign-in's), so it does not
 * pay for a second durable write per visit on one hot row; behind N processes an address gets up to N times the budget.
 */
export function systemServices(platform: PlatformContext): Pick<AppContext, 'visits'> {
  const { config, logger } = platform;
  return {
    visits: {
      limit: new RateLimit({ name: 'visit-address', points: config.visitRateLimitPerMinute, windowSeconds: 60 }, { kind: 'memory' }),
      notifier: new VisitNotifier(
        { url: config.visitNotificationWebhookUrl, timeoutMs: config.visitNotificationTimeoutMs, maxPending: config.visitNotificationMaxPending },
        logger.child({ component: 'visits' }),
      ),
    },
  };
}

/** The app's visit services. */
export function visitServices(app: AppContext): VisitServices {
  return app.visits;
}

export async function throttleVisit(app: AppContext, ip: string): Promise<void> {
  await consumeOrThrow([[visitServices(app).limit, addressKey(ip)]], 'Too many visits from this address; try again later.');
}

/** The visitor's country from a trusted proxy's header (only with TRUST_PROXY), as an ISO 3166 alpha-2 code. */
export function trustedCountry(trustProxy: boolean, header: (name: string) => string): string | undefined {
  if (!trustProxy) return undefined;
  const value = (header('cf-ipcountry') || header('x-country-code')).trim().toUpperCase();
  return /^[A-Z]{2}$/.test(value) ? value : undefined;
}
