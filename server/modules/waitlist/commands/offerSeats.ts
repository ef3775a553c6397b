import type { AppContext } from '../../../platform/context.ts';
import { publish, type DomainContext } from '../../../domain/events.ts';
import { digest, newAccessToken } from '../../../platform/auth/tokens.ts';
import { recordEmail } from '../../email/index.ts';
import { WaitlistEntry } from '../models.ts';
import type { LockedEvent } from '../queries.ts';
import { WAITLIST_EXPIRE_OFFERS_QUEUE } from '../queues.ts';

/**
 * The guest site's offer page for a guest reading `locale` (issue 34 §3): WAITLIST_OFFER_URL with `{locale}` replaced
 * by the site locale the guest's is (`vi-VN` → `vi`; one the site lacks → the default), by default
 * `<PUBLIC_SITE_URL>/<locale>/waitlist-offer`.
 */
export function waitlistOfferPage(config: Pick<AppContext['config'], 'waitlistOfferUrl' | 'siteLocales' | 'defaultLocale'>, locale: string): string {
  const primary = locale.toLowerCase().split(/[-_]/)[0];
  const siteLocale = config.siteLocales.includes(primary) ? primary : config.defaultLocale;
  return config.waitlistOfferUrl.split('{locale}').join(encodeURIComponent(siteLocale));
}

/**
 * Waiting-list offers: an entry is NOTIFIED with a fresh offer token (only its SHA-256 stored) that holds its
 * party's seats for WAITLIST_OFFER_HOURS (the availability expression counts it), and the offer link is
 * e-mailed through the ledger. Staff notify one entry (./notifyWaitlistEntry.ts); the job notifies, in joining
 * order, every waiting entry whose party fits in the seats that freed up (./notifyNextWaiting.ts: a
 * cancellation, an expired hold, an expired offer), as pretix does. Each runs in one transaction with the event
 * row locked (lock order: event → entries), so two runs never offer the same seats twice.
 *
 * This is their shared write, in the caller's unit of work: marks one entry NOTIFIED with a new token and expiry,
 * publishes `waitlist.offered` (the offer holds its seats: the catalog forgets its kept answers), e-mails the link,
 * schedules the offer's expiry.
 */
export async function offerSeats(ctx: DomainContext, event: LockedEvent, entry: WaitlistEntry): Promise<void> {
  const { trx, app, now } = ctx;
  const token = newAccessToken();
  const expiresAt = new Date(now.getTime() + app.config.waitlistOfferHours * 3_600_000);
  await WaitlistEntry.query(trx).findById(entry.id).patch({ status: 'NOTIFIED', offerTokenHash: digest(token), offerExpiresAt: expiresAt, notifiedAt: now, updatedAt: now });
  await publish(ctx, 'waitlist.offered', { entryId: entry.id, showEventId: event.id, offerExpiresAt: expiresAt });
  const locale = entry.locale ?? app.config.defaultLocale;
  const url = new URL(waitlistOfferPage(app.config, locale));
  url.searchParams.set('event', event.slug);
  url.searchParams.set('token', token);
  await recordEmail(
    trx,
    {
      template: 'waitlist-offer',
      to: entry.email,
      locale,
      customerId: entry.customerId,
      data: {
        guestName: entry.name,
        showName: event.title[locale] ?? event.title[app.config.defaultLocale] ?? Object.values(event.title)[0] ?? '',
        startsAt: event.startsAt,
        partySize: entry.guestCount,
        offerUrl: url.toString(),
        offerExpiresAt: expiresAt,
      },
    },
    { enqueue: app.jobs.enqueue.bind(app.jobs), emailFrom: app.config.emailFrom },
  );
  await app.jobs.enqueue(WAITLIST_EXPIRE_OFFERS_QUEUE, { eventId: event.id }, { trx, startAfter: expiresAt });
}
