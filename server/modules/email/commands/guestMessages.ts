import type { Knex } from 'knex';
import type { AppContext } from '../../../platform/context.ts';
import type { JobEngine } from '../../../platform/jobs/index.ts';
import { Problem } from '../../../platform/http/problem.ts';
import { siteRoutes } from '../../assistantCatalog/index.ts';
import { openSecret } from '../../../platform/auth/tokens.ts';
import { displayName } from '../addresses.ts';
import {
  eventStartOf,
  hasMessage,
  lockReservationContact,
  lockReservationForReminder,
  lockReservationForTransferReminder,
  netPaid,
  pendingTransferReference,
  refundForMessage,
  refundsOf,
  reservationForMessage,
  type ReservationForMessage,
} from '../queries.ts';
import type { PriceBreakdown, RefundLine } from '../templates.ts';
import { recordEmail, type RecordEmailDeps } from './recordEmail.ts';

/**
 * The messages a guest gets about their reservation (issue 21 §2), each written to the e-mail ledger (a row and
 * its `email.send` job) inside the transaction of the change it reports, in the reservation's locale:
 *
 * - `reservation-confirmation` (`reservation.confirmed`, booking's `confirmReservation`): show, venue-time date, doors and start, the
 *   offer, party size, the price exactly as charged and what was paid, the manage-booking link, the check-in QR
 *   (inline and as a file) and an `.ics` calendar event; the reminder job is scheduled with it.
 * - `reservation-cancelled-by-venue` / `reservation-cancelled-by-guest` (`reservation.cancelled`, staff
 *   or guest): what was cancelled, the refunds the cancellation requested and where each stands.
 * - `reservation-cancelled` (`reservation.cancelled` with `cause: 'event_cancelled'`: a cancelled show event).
 * - `refund-completed` / `refund-failed` (payments `settleRefund`).
 * - `hold-expired` (the `email.hold-expired` job, queued by the hold expiry's subscriber in ../subscribers.ts).
 * - `reservation-reminder` (the `email.reservation-reminder` job, `REMINDER_HOURS_BEFORE` before the show).
 * - `bank-transfer-details` / `pay-at-venue-pending` (`reservation.paymentDeferred`, issue 34 §1: the guest chose to
 *   pay later and the seats are held until a deadline), and `bank-transfer-reminder` (the `email.transfer-reminder`
 *   job, the setup's hours before the transfer deadline).
 *
 * Every one is addressed to, and greets, the reservation's own contact snapshot (`reservations.contact_*`), never
 * the CRM customer record (a guest's booking never changes it, and the record may be someone else's knowledge).
 * These are the module's writes about a reservation: each records ledger rows (./recordEmail.ts) or enqueues a
 * job, in the caller's unit of work or, for the two jobs, in a transaction of their own. Their reads of other
 * modules' tables are in ../queries.ts.
 */

export const REMINDER_QUEUE = 'email.reservation-reminder';
export const HOLD_EXPIRED_QUEUE = 'email.hold-expired';
export const TRANSFER_REMINDER_QUEUE = 'email.transfer-reminder';

export interface MessageContext {
  trx: Knex.Transaction;
  app: AppContext;
  now: Date;
}

export function ledgerDeps(app: AppContext): RecordEmailDeps {
  return { enqueue: (queue, data, options) => app.jobs.enqueue(queue, data, options), emailFrom: app.config.emailFrom, timeZone: app.config.venueTimezone };
}

/** The reservation's locale when the site has it (`vi-VN` → `vi`), else the site's default. */
export function guestLocale(app: Pick<AppContext, 'config'>, requested: string | null | undefined): string {
  const primary = (requested ?? '').trim().toLowerCase().split(/[-_]/)[0];
  return app.config.siteLocales.includes(primary) ? primary : app.config.defaultLocale;
}

/**
 * The guest's manage-booking page: `<PUBLIC_SITE_URL>/<locale>/booking/<reference>#token=<access token>`. The token
 * rides in the fragment, which browsers never send to a server (no access log, no Referer carries it); the page
 * reads it and calls `GET /api/public/reservations/{reference}` with `x-reservation-token`.
 */
export function manageBookingUrl(publicSiteUrl: string, locale: string, reference: string, token: string): string {
  return `${siteRoutes(publicSiteUrl, locale).baseUrl}/booking/${encodeURIComponent(reference)}#token=${encodeURIComponent(token)}`;
}

const localized = (value: Record<string, string> | null | undefined, locale: string, fallback: string): string =>
  (value && (value[locale] ?? value[fallback] ?? Object.values(value)[0])) || '';

interface Details {
  id: string;
  reference: string;
  status: string;
  customerId: string;
  guestCount: number;
  locale: string;
  guestName: string;
  email: string;
  showName: string;
  offerName: string;
  startsAt: Date;
  doorsAt: Date | null;
  endsAt: Date;
  eventSlug: string | null;
  eventStatus: string;
  accessTokenSealed: string | null;
  row: ReservationForMessage;
}

/** The reservation with its event, show, offer and contact snapshot, as the guest's messages need it. */
async function details(trx: Knex.Transaction, app: AppContext, id: string): Promise<Details> {
  const row = await reservationForMessage(trx, id);
  if (!row) throw new Error(`guest message: no reservation ${id}`);
  const locale = guestLocale(app, row.locale);
  const fallback = app.config.defaultLocale;
  const startsAt = new Date(row.eventStartsAt);
  return {
    id,
    reference: row.reference,
    status: row.status,
    customerId: row.customerId,
    guestCount: row.guestCount,
    locale,
    guestName: [row.contactHonorific, row.contactName].filter(Boolean).join(' '),
    email: row.contactEmail,
    showName: localized(row.showTitle, locale, fallback),
    offerName: localized(row.offerName, locale, fallback),
    startsAt,
    doorsAt: row.eventDoorsAt ? new Date(row.eventDoorsAt) : null,
    endsAt: new Date(startsAt.getTime() + Number(row.showDurationMinutes) * 60_000),
    eventSlug: row.eventSlug,
    eventStatus: row.eventStatus,
    accessTokenSealed: row.accessTokenSealed ?? null,
    row,
  };
}

function priceOf(d: Details, paidVnd: number): PriceBreakdown {
  const r = d.row;
  const promo = Number(r.promoDiscountVnd ?? 0);
  const referral = Number(r.referralDiscountVnd ?? 0);
  return {
    subtotalVnd: Number(r.subtotalVnd),
    promoDiscountVnd: promo,
    promoCode: r.promoCode ?? null,
    referralDiscountVnd: referral,
    referralCode: r.referralCode ?? null,
    otherDiscountVnd: Math.max(0, Number(r.discountVnd ?? 0) - promo - referral),
    serviceChargeVnd: Number(r.serviceChargeVnd),
    serviceChargePercent: Number(r.serviceChargePercent),
    vatVnd: Number(r.vatVnd),
    vatPercent: Number(r.vatPercent),
    voucherCreditVnd: Number(r.voucherCreditVnd ?? 0),
    voucherCode: r.voucherCode ?? null,
    totalVnd: Number(r.totalVnd),
    paidVnd,
    dueVnd: Math.max(0, Number(r.totalVnd) - paidVnd),
  };
}

/** The manage-booking link, or null for a reservation whose token was not kept sealed (an older row). */
async function manageUrlOf(trx: Knex.Transaction, app: AppContext, d: Details): Promise<string | null> {
  const token = await openSecret(trx, d.accessTokenSealed);
  return token ? manageBookingUrl(app.config.publicSiteUrl, d.locale, d.reference, token) : null;
}

/** This event's booking page while it can still be booked, else the site's list of shows. */
function bookAgain(app: AppContext, d: Details, now: Date): { url: string; sameEvent: boolean } {
  const routes = siteRoutes(app.config.publicSiteUrl, d.locale);
  if (d.eventSlug && d.eventStatus === 'SCHEDULED' && d.startsAt > now) return { url: routes.booking(d.eventSlug), sameEvent: true };
  return { url: routes.pages.shows, sameEvent: false };
}

/** `Venue name, address` (VENUE_ADDRESS), the calendar event's location. */
const venueLocation = (app: AppContext) => [displayName(app.config.emailFrom), app.config.venueAddress].filter(Boolean).join(', ');

// ---- confirmation and reminder --------------------------------------------------------------------------------

/**
 * The confirmation (the `reservation.confirmed` subscriber, ../subscribers.ts): its QR code is the check-in token
 * the confirmation just made, read back from the reservation's sealed copy in the confirming transaction.
 */
export async function queueConfirmationEmail(ctx: Pick<MessageContext, 'trx' | 'app'>, id: string): Promise<void> {
  const d = await details(ctx.trx, ctx.app, id);
  const checkInToken = await openSecret(ctx.trx, d.row.checkInTokenSealed);
  if (!checkInToken) throw new Error(`confirmation e-mail: reservation ${id} has no check-in token that opens`);
  const price = priceOf(d, await netPaid(ctx.trx, id));
  await recordEmail(
    ctx.trx,
    {
      template: 'reservation-confirmation',
      to: d.email,
      locale: d.locale,
      customerId: d.customerId,
      reservationId: id,
      data: {
        guestName: d.guestName,
        showName: d.showName,
        startsAt: d.startsAt,
        doorsAt: d.doorsAt,
        endsAt: d.endsAt,
        offerName: d.offerName || null,
        partySize: d.guestCount,
        totalVnd: price.totalVnd,
        price,
        reservationReference: d.reference,
        checkInToken,
        manageUrl: await manageUrlOf(ctx.trx, ctx.app, d),
        location: venueLocation(ctx.app),
        // Paid at the venue (issue 34 §1): what the door collects, said first.
        dueAtVenueVnd: d.row.payLaterMethod === 'PAY_AT_VENUE' ? price.dueVnd : 0,
      },
    },
    ledgerDeps(ctx.app),
  );
}

/**
 * Schedules the reminder `REMINDER_HOURS_BEFORE` before the show (a job with `startAfter`, in the confirming
 * transaction). None when reminders are off (0) or that moment has already passed: the confirmation just sent
 * says it all. A cancellation does not need to find the job: the job checks everything again when it runs.
 */
export async function scheduleReminder(ctx: MessageContext, id: string): Promise<Date | null> {
  const hours = ctx.app.config.reminderHoursBefore;
  if (!hours) return null;
  const startsAt = await eventStartOf(ctx.trx, id);
  const due = new Date(new Date(startsAt).getTime() - hours * 3_600_000);
  if (due <= ctx.now) return null;
  await ctx.app.jobs.enqueue(REMINDER_QUEUE, { reservationId: id }, { trx: ctx.trx, startAfter: due });
  return due;
}

export type ReminderOutcome = 'sent' | 'rescheduled' | 'already_sent' | 'not_confirmed' | 'event_not_scheduled' | 'event_started' | 'disabled' | 'no_reservation';

/** A run may be this early (clock skew, the poll interval) and still send. */
const REMINDER_EARLY_MS = 5 * 60_000;

/**
 * The reminder job: sends the reminder once, and only while it is still true — the reservation CONFIRMED, its
 * event SCHEDULED and not started. One per reservation: the reservation row is locked and the ledger checked
 * (a unique index on the ledger backs it), so a job that runs twice sends once. A show moved later since
 * the job was queued gets a new job at the new time.
 */
export async function sendReminder(app: AppContext, reservationId: string, now = new Date()): Promise<ReminderOutcome> {
  return app.db.knex.transaction(async (trx) => {
    const reservation = await lockReservationForReminder(trx, reservationId);
    if (!reservation) return 'no_reservation';
    if (reservation.status !== 'CONFIRMED') return 'not_confirmed';
    if (reservation.eventStatus !== 'SCHEDULED') return 'event_not_scheduled';
    const startsAt = new Date(reservation.eventStartsAt);
    if (startsAt <= now) return 'event_started';
    if (await hasMessage(trx, reservationId, 'reservation-reminder')) return 'already_sent';
    const hours = app.config.reminderHoursBefore;
    if (!hours) return 'disabled';
    const due = new Date(startsAt.getTime() - hours * 3_600_000);
    if (due.getTime() - now.getTime() > REMINDER_EARLY_MS) {
      await app.jobs.enqueue(REMINDER_QUEUE, { reservationId }, { trx, startAfter: due });
      return 'rescheduled';
    }
    const d = await details(trx, app, reservationId);
    const price = priceOf(d, await netPaid(trx, reservationId));
    await recordEmail(
      trx,
      {
        template: 'reservation-reminder',
        to: d.email,
        locale: d.locale,
        customerId: d.customerId,
        reservationId,
        data: {
          guestName: d.guestName,
          showName: d.showName,
          startsAt: d.startsAt,
          doorsAt: d.doorsAt,
          partySize: d.guestCount,
          offerName: d.offerName || null,
          reservationReference: d.reference,
          dueVnd: price.dueVnd,
          manageUrl: await manageUrlOf(trx, app, d),
        },
      },
      ledgerDeps(app),
    );
    return 'sent';
  });
}

// ---- paying later ---------------------------------------------------------------------------------------------

/** What a held pay-later message says: the reservation, what is due and the deadline, with the transfer's details. */
async function payLaterData(ctx: Pick<MessageContext, 'trx' | 'app'>, d: Details, payBy: Date, amountVnd: number, transferReference: string | null) {
  const held = {
    guestName: d.guestName,
    showName: d.showName,
    startsAt: d.startsAt,
    partySize: d.guestCount,
    reservationReference: d.reference,
    amountVnd,
    payBy,
    manageUrl: await manageUrlOf(ctx.trx, ctx.app, d),
  };
  const account = ctx.app.config.bankTransfer;
  return { held, transfer: account && transferReference ? { ...held, ...account, transferReference } : undefined };
}

/**
 * The guest chose to pay later and the seats are held until `payBy` (`reservation.paymentDeferred`, in the
 * checkout's transaction): a bank transfer's details and deadline (`bank-transfer-details`), its reminder's job at
 * `remindAt`; or the wait for staff's approval of paying at the venue (`pay-at-venue-pending`).
 */
export async function queuePayLaterEmail(
  ctx: MessageContext,
  deferred: { reservationId: string; method: 'PAY_AT_VENUE' | 'BANK_TRANSFER'; payBy: Date; amountVnd: number; transferReference: string | null; remindAt: Date | null },
): Promise<void> {
  const d = await details(ctx.trx, ctx.app, deferred.reservationId);
  const { held, transfer } = await payLaterData(ctx, d, deferred.payBy, deferred.amountVnd, deferred.transferReference);
  const addressed = { to: d.email, locale: d.locale, customerId: d.customerId, reservationId: d.id };
  if (deferred.method === 'PAY_AT_VENUE') {
    await recordEmail(ctx.trx, { template: 'pay-at-venue-pending', ...addressed, data: held }, ledgerDeps(ctx.app));
    return;
  }
  // Bank transfer is offered only while the venue's account is configured; a checkout without it has no details to send.
  if (!transfer) return;
  await recordEmail(ctx.trx, { template: 'bank-transfer-details', ...addressed, data: transfer }, ledgerDeps(ctx.app));
  if (deferred.remindAt && deferred.remindAt > ctx.now) {
    await ctx.app.jobs.enqueue(TRANSFER_REMINDER_QUEUE, { reservationId: d.id }, { trx: ctx.trx, startAfter: deferred.remindAt });
  }
}

export type TransferReminderOutcome = 'sent' | 'already_sent' | 'not_awaiting_transfer' | 'paid' | 'no_reservation' | 'not_configured';

/**
 * The `email.transfer-reminder` job: reminds the guest of the transfer once, and only while it is still owed — the
 * reservation HELD for a bank transfer, its deadline ahead, something due (staff may have recorded the transfer, or
 * the guest paid another way, since). Under the reservation's row lock, checked against the ledger (and its unique
 * index): a job run twice sends once.
 */
export async function sendTransferReminder(app: AppContext, reservationId: string, now = new Date()): Promise<TransferReminderOutcome> {
  return app.db.knex.transaction(async (trx) => {
    const reservation = await lockReservationForTransferReminder(trx, reservationId);
    if (!reservation) return 'no_reservation';
    if (reservation.status !== 'HELD' || reservation.payLaterMethod !== 'BANK_TRANSFER' || !reservation.holdExpiresAt || reservation.holdExpiresAt <= now) return 'not_awaiting_transfer';
    if (await hasMessage(trx, reservationId, 'bank-transfer-reminder')) return 'already_sent';
    const dueVnd = reservation.totalVnd - (await netPaid(trx, reservationId));
    if (dueVnd <= 0) return 'paid';
    const d = await details(trx, app, reservationId);
    const { transfer } = await payLaterData({ trx, app }, d, reservation.holdExpiresAt, dueVnd, await pendingTransferReference(trx, reservationId));
    if (!transfer) return 'not_configured';
    await recordEmail(trx, { template: 'bank-transfer-reminder', to: d.email, locale: d.locale, customerId: d.customerId, reservationId, data: transfer }, ledgerDeps(app));
    return 'sent';
  });
}

// ---- cancellations and refunds ------------------------------------------------------------------------------

async function refundLines(trx: Knex.Transaction, reservationId: string, requestedAt: Date): Promise<RefundLine[]> {
  const rows = await refundsOf(trx, reservationId);
  return rows
    .filter((row) => row.createdAt.getTime() === requestedAt.getTime())
    .map((row) => ({
      amountVnd: row.amountVnd,
      state: row.status === 'SUCCEEDED' ? 'COMPLETED' : row.status === 'FAILED' ? 'FAILED' : row.gateway === 'VNPAY' ? 'PROCESSING' : 'VENUE_WILL_ARRANGE',
    }));
}

/**
 * A reservation cancelled by staff (`STAFF`) or by its guest (`GUEST`): written in the cancelling transaction after
 * the cancellation's other subscribers ran, so the refunds it requested exist; they are the ones stamped with the
 * unit of work's clock (`requestedAt`: every write of one unit of work carries its `now`).
 */
export async function queueCancellationEmail(ctx: MessageContext, id: string, by: 'STAFF' | 'GUEST', requestedAt: Date): Promise<void> {
  const d = await details(ctx.trx, ctx.app, id);
  const refunds = await refundLines(ctx.trx, id, requestedAt);
  const paidVnd = (await netPaid(ctx.trx, id)) + refunds.filter((line) => line.state === 'COMPLETED').reduce((sum, line) => sum + line.amountVnd, 0);
  await recordEmail(
    ctx.trx,
    {
      template: by === 'STAFF' ? 'reservation-cancelled-by-venue' : 'reservation-cancelled-by-guest',
      to: d.email,
      locale: d.locale,
      customerId: d.customerId,
      reservationId: id,
      data: {
        guestName: d.guestName,
        showName: d.showName,
        startsAt: d.startsAt,
        partySize: d.guestCount,
        offerName: d.offerName || null,
        reservationReference: d.reference,
        paidVnd,
        refunds,
        bookAgainUrl: bookAgain(ctx.app, d, ctx.now).url,
      },
    },
    ledgerDeps(ctx.app),
  );
}

/** A show event's cancellation (../subscribers.ts): `paidVnd` read by the reservations module before its refunds were requested. */
export async function queueEventCancellationEmail(trx: Knex.Transaction, app: AppContext, id: string, paidVnd: number): Promise<void> {
  const d = await details(trx, app, id);
  await recordEmail(
    trx,
    {
      template: 'reservation-cancelled',
      to: d.email,
      locale: d.locale,
      customerId: d.customerId,
      reservationId: id,
      data: { guestName: d.guestName, showName: d.showName, startsAt: d.startsAt, partySize: d.guestCount, reservationReference: d.reference, paidVnd },
    },
    ledgerDeps(app),
  );
}

/** A refund's final outcome (payments `settleRefund`, in its transaction). */
export async function queueRefundOutcomeEmail(ctx: Pick<MessageContext, 'trx' | 'app'>, refundId: string): Promise<void> {
  const refund = await refundForMessage(ctx.trx, refundId);
  if (!refund || (refund.status !== 'SUCCEEDED' && refund.status !== 'FAILED')) return;
  const d = await details(ctx.trx, ctx.app, refund.reservationId);
  // The money's record matters more than the message: a message that cannot be written (a recipient the ledger
  // refuses, a template that cannot render — both found before anything is written) is logged, and the refund is
  // still settled, rather than leaving a refund VNPay already made PENDING (and sent again).
  try {
    await writeRefundOutcome(ctx, refund, d);
  } catch (err) {
    if (!(err instanceof TypeError) && !(err instanceof Problem && err.status === 422)) throw err;
    ctx.app.logger.warn({ err, refundId, reservationId: d.id }, 'the refund outcome e-mail could not be written; the refund is settled without it');
  }
}

async function writeRefundOutcome(ctx: Pick<MessageContext, 'trx' | 'app'>, refund: { status: string; amountVnd: number; gateway: string }, d: Details): Promise<void> {
  await recordEmail(
    ctx.trx,
    {
      template: refund.status === 'SUCCEEDED' ? 'refund-completed' : 'refund-failed',
      to: d.email,
      locale: d.locale,
      customerId: d.customerId,
      reservationId: d.id,
      data: { guestName: d.guestName, showName: d.showName, startsAt: d.startsAt, reservationReference: d.reference, amountVnd: refund.amountVnd, gateway: refund.gateway },
    },
    ledgerDeps(ctx.app),
  );
}

// ---- hold expiry -------------------------------------------------------------------------------------------

/** The hold expiry's subscriber (../subscribers.ts): one `email.hold-expired` job for the reservations it expired, in its transaction. */
export async function queueHoldExpiredJob(trx: Knex.Transaction, reservationIds: string[], jobs: Pick<JobEngine, 'enqueue'> | undefined): Promise<void> {
  if (!jobs || reservationIds.length === 0) return;
  await jobs.enqueue(HOLD_EXPIRED_QUEUE, { reservationIds }, { trx });
}

/**
 * The `email.hold-expired` job: each reservation still EXPIRED (a late payment may have confirmed it since) and
 * not yet told gets the `hold-expired` message, in a transaction of its own under its row lock (so a second run
 * sends nothing again). Answers how many were written.
 */
export async function sendHoldExpired(app: AppContext, reservationIds: string[], now = new Date()): Promise<number> {
  let written = 0;
  for (const id of reservationIds) {
    const done = await app.db.knex.transaction(async (trx) => {
      const reservation = await lockReservationContact(trx, id);
      if (!reservation || reservation.status !== 'EXPIRED' || !reservation.contactEmail) return false;
      if (await hasMessage(trx, id, 'hold-expired')) return false;
      const d = await details(trx, app, id);
      const again = bookAgain(app, d, now);
      await recordEmail(
        trx,
        {
          template: 'hold-expired',
          to: d.email,
          locale: d.locale,
          customerId: d.customerId,
          reservationId: id,
          data: {
            guestName: d.guestName,
            showName: d.showName,
            startsAt: d.startsAt,
            partySize: d.guestCount,
            reservationReference: d.reference,
            bookAgainUrl: again.url,
            sameEvent: again.sameEvent,
            // A guest who chose to pay later learns why the seats went (issue 34 §1).
            reason: d.row.payLaterMethod === 'BANK_TRANSFER' ? 'transfer' : d.row.payLaterMethod === 'PAY_AT_VENUE' ? 'approval' : null,
          },
        },
        ledgerDeps(app),
      );
      return true;
    });
    if (done) written++;
  }
  return written;
}
