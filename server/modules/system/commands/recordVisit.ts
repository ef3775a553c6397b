import type { AppContext } from '../../../platform/context.ts';
import { countVisit } from '../queries.ts';
import { noticeText, throttleVisit, trustedCountry, visitBuckets, type VisitBuckets } from '../visits.ts';

export interface RecordVisitInput {
  path: string;
  referrer?: string;
  ip: string;
  userAgent: string;
  /** A request header ('' when absent): the trusted proxy's country header. */
  header: (name: string) => string;
}

/**
 * Counts a visit in today's and this week's buckets (throttled per address; one statement, so no unit of work of
 * its own), then, when VISIT_NOTIFICATION_WEBHOOK_URL is set, notifies it from memory (nothing about the visitor
 * is stored).
 */
export async function recordVisit(app: AppContext, input: RecordVisitInput): Promise<VisitBuckets> {
  await throttleVisit(app, input.ip);
  const buckets = visitBuckets(new Date(), app.config.venueTimezone);
  await countVisit(app.db.knex, buckets);
  const { notifier } = app.visits;
  if (notifier.enabled) {
    const country = trustedCountry(app.config.trustProxy, input.header);
    notifier.notify(noticeText({ path: input.path, referrer: input.referrer, userAgent: input.userAgent, ip: input.ip, country }, buckets));
  }
  return buckets;
}
