import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Eta } from 'eta';
import { withoutGuestToken } from './guestTokens.ts';
import { checkInQrPng } from '../booking/index.ts';

/**
 * E-mail templates are files under `templates/`: `<name>.<locale>.eta`, each with three sections introduced by
 * a line `=== subject ===`, `=== html ===` and `=== text ===`. The HTML section is wrapped in
 * `layout.html.eta`. HTML is rendered with Eta's auto-escaping on (`<%= %>` escapes; `<%~ %>` is raw and is
 * used only by the layout for the already rendered body); the subject and the text part are rendered without
 * HTML escaping (they are not HTML; nodemailer encodes the header). A locale without its file falls back to `en`.
 */

export const LOCALES = ['en', 'vi'] as const;
export type Locale = (typeof LOCALES)[number];
export const DEFAULT_LOCALE: Locale = 'en';

/** The venue's wall clock: show times are written in it whatever the server's time zone. */
export const VENUE_TIME_ZONE = 'Asia/Ho_Chi_Minh';

/** The price exactly as charged (the reservation's own columns), and what its payments brought in. Integer VND. */
export interface PriceBreakdown {
  subtotalVnd: number;
  /** Promo code reduction (before service charge and VAT). */
  promoDiscountVnd: number;
  promoCode?: string | null;
  /** Partner referral reduction (before service charge and VAT). */
  referralDiscountVnd: number;
  referralCode?: string | null;
  /** A reduction recorded before discounts were kept by source (older rows): discount − promo − referral. */
  otherDiscountVnd?: number;
  serviceChargeVnd: number;
  serviceChargePercent: number;
  vatVnd: number;
  vatPercent: number;
  /** Voucher credit (after VAT). */
  voucherCreditVnd: number;
  voucherCode?: string | null;
  totalVnd: number;
  /** Net of succeeded payments (minus what was refunded). */
  paidVnd: number;
  /** total − paid, never below 0. */
  dueVnd: number;
}

export interface ReservationConfirmationData {
  guestName: string;
  showName: string;
  /** The show event's start (ISO string or Date). */
  startsAt: string | Date;
  partySize: number;
  /** Integer VND. */
  totalVnd: number;
  reservationReference: string;
  /** Encoded in the check-in QR code (inline image, and the same PNG as a file attachment). */
  checkInToken: string;
  /** When the doors open (venue time), if the event says. */
  doorsAt?: string | Date | null;
  /** The offer (package) booked, in the guest's locale. */
  offerName?: string | null;
  /** The full breakdown; without it only the total is shown. */
  price?: PriceBreakdown | null;
  /**
   * The manage-booking link (carries the guest's token in its fragment: redacted in the ledger, ../guestTokens.ts);
   * left out when there is none.
   */
  manageUrl?: string | null;
  /** The show's end (start + duration): with it, an `.ics` calendar invitation is attached (the link without the token). */
  endsAt?: string | Date | null;
  /** The calendar event's LOCATION (venue name and address). */
  location?: string | null;
  /**
   * What the guest pays at the door (issue 34 §1: they chose to pay at the venue), integer VND: said first, in
   * words; 0 or absent when nothing is.
   */
  dueAtVenueVnd?: number | null;
}

/** A guest paying later whose seats are held until a deadline: the transfer's details, or staff's approval to wait for. */
export interface PayLaterHeldData {
  guestName: string;
  showName: string;
  startsAt: string | Date;
  partySize: number;
  reservationReference: string;
  /** What is due, integer VND. */
  amountVnd: number;
  /** Until when the seats are held (the transfer's or the approval's deadline). */
  payBy: string | Date;
  /** The manage-booking link (its token redacted in the ledger, ../guestTokens.ts). */
  manageUrl?: string | null;
}

/** A bank transfer the guest owes: the venue's account and the reference to quote (`bank-transfer-details`, `bank-transfer-reminder`). */
export interface BankTransferData extends PayLaterHeldData {
  bankName: string;
  accountName: string;
  accountNumber: string;
  transferReference: string;
}

/** One refund as a guest reads it: its amount and where it stands. */
export interface RefundLine {
  amountVnd: number;
  /**
   * `COMPLETED`: the money was given back; `PROCESSING`: sent to the online payment's gateway (VNPay), an e-mail
   * follows; `VENUE_WILL_ARRANGE`: paid on site or by transfer, the venue contacts the guest to give it back;
   * `FAILED`: the refund did not go through.
   */
  state: 'COMPLETED' | 'PROCESSING' | 'VENUE_WILL_ARRANGE' | 'FAILED';
}

/** One reservation cancelled by the venue's staff, or by the guest with the token. */
export interface ReservationCancellationData {
  guestName: string;
  showName: string;
  startsAt: string | Date;
  partySize: number;
  reservationReference: string;
  offerName?: string | null;
  /** What the guest had paid (net), integer VND. */
  paidVnd: number;
  /** The refunds this cancellation requested (empty when nothing was paid). */
  refunds: RefundLine[];
  /** Where to book another performance. */
  bookAgainUrl: string;
}

/** A refund's final outcome. */
export interface RefundOutcomeData {
  guestName: string;
  showName: string;
  startsAt: string | Date;
  reservationReference: string;
  amountVnd: number;
  /** `VNPAY`, `CASH`, `CARD_ON_SITE`, `BANK_TRANSFER`. */
  gateway: string;
}

/** An unpaid hold ran out and its seats were released. */
export interface HoldExpiredData {
  guestName: string;
  showName: string;
  startsAt: string | Date;
  partySize: number;
  reservationReference: string;
  /** The event's booking page while it can still be booked, else the shows page. */
  bookAgainUrl: string;
  /** Whether `bookAgainUrl` is this event's own page. */
  sameEvent: boolean;
  /** Why it lapsed, when the guest had chosen to pay later: the transfer did not arrive, or staff did not approve in time. */
  reason?: 'transfer' | 'approval' | null;
}

/** A reminder a configurable time before the show. */
export interface ReservationReminderData {
  guestName: string;
  showName: string;
  startsAt: string | Date;
  doorsAt?: string | Date | null;
  partySize: number;
  offerName?: string | null;
  reservationReference: string;
  /** Still to pay at the venue, integer VND. */
  dueVnd: number;
  /** The manage-booking link with the guest's token (redacted in the ledger, ../guestTokens.ts). */
  manageUrl?: string | null;
}

export interface TestMessageData {
  note?: string;
}

/** A reservation cancelled because its show event was cancelled (server/modules/reservations/subscribers.ts). */
export interface ReservationCancelledData {
  guestName: string;
  showName: string;
  startsAt: string | Date;
  partySize: number;
  reservationReference: string;
  /** What the guest paid and has not had back (integer VND); 0 when nothing was paid. */
  paidVnd: number;
}

/** A message staff write to a customer (POST /api/customers/{customerId}/emails): their subject and plain text. */
export interface CustomerMessageData {
  guestName: string;
  subject: string;
  /** Plain text; blank lines separate paragraphs. */
  body: string;
}

export interface InquiryAcknowledgementData {
  guestName: string;
  /** The inquiry type in the guest's words (e.g. `Private event`). */
  typeLabel: string;
  /** `YYYY-MM-DD`, or null. */
  preferredDate: string | null;
  guestCount: number | null;
  message: string;
}

export interface InquiryNotificationData {
  inquiryId: string;
  type: string;
  guestName: string;
  guestEmail: string;
  guestPhone: string | null;
  preferredDate: string | null;
  guestCount: number | null;
  message: string;
}

export interface InquiryFollowUpData {
  guestName: string;
  subject: string;
  message: string;
}

export interface WaitlistOfferData {
  guestName: string;
  showName: string;
  startsAt: string | Date;
  partySize: number;
  /** The offer link (carries the offer token: redacted in the ledger, ../guestTokens.ts). */
  offerUrl: string;
  offerExpiresAt: string | Date;
}

/** A website chat transcript for the venue (server/modules/chatNotifications). */
export interface ChatTranscriptData {
  transcriptId: string;
  conversationId?: string;
  locale: string;
  pageUrl?: string;
  startedAt?: string;
  messages: Array<{ role: 'user' | 'assistant'; text: string; at?: string }>;
}

/**
 * A webhook endpoint disabled after every attempt failed for WEBHOOK_DISABLE_AFTER_HOURS (server/modules/webhooks,
 * issue 36 §3), to each administrator.
 */
export interface WebhookEndpointDisabledData {
  /** The endpoint's URL without its query string (a receiver's token there stays out of the ledger). */
  endpointUrl: string;
  description: string | null;
  failingSince: string | Date;
  disabledAt: string | Date;
  /** The last attempt's error ("the endpoint answered 503", "no answer within 10000 ms", …). */
  lastError: string;
  /** Messages that were still to be delivered and failed with it (they can be redelivered once it is on again). */
  pendingFailed: number;
}

/** A gift voucher sold online was paid: the buyer's receipt (server/modules/giftVouchers, issue 36 §1). No code: it is the recipient's. */
export interface GiftVoucherReceiptData {
  buyerName: string;
  recipientName: string;
  recipientEmail: string;
  orderReference: string;
  amountVnd: number;
  /** `YYYY-MM-DD`: the day the recipient's e-mail goes out. */
  deliveryDate: string;
  expiresAt: string | Date;
  message: string | null;
}

/** The gift itself, to the recipient on the delivery date, with the printable voucher (PDF) attached by the caller. */
export interface GiftVoucherDeliveryData {
  recipientName: string;
  buyerName: string;
  voucherCode: string;
  amountVnd: number;
  expiresAt: string | Date;
  message: string | null;
  /** Where to book (the site's shows page). */
  bookUrl: string;
  /** The attached PDF's file name (the text part names it). */
  pdfFilename: string;
}

/** Template name → the data its caller gives. */
export interface TemplateDataMap {
  'reservation-confirmation': ReservationConfirmationData;
  'test-message': TestMessageData;
  'reservation-cancelled': ReservationCancelledData;
  'customer-message': CustomerMessageData;
  'inquiry-acknowledgement': InquiryAcknowledgementData;
  'inquiry-notification': InquiryNotificationData;
  'inquiry-follow-up': InquiryFollowUpData;
  'waitlist-offer': WaitlistOfferData;
  'chat-transcript': ChatTranscriptData;
  'reservation-cancelled-by-venue': ReservationCancellationData;
  'reservation-cancelled-by-guest': ReservationCancellationData;
  'refund-completed': RefundOutcomeData;
  'refund-failed': RefundOutcomeData;
  'hold-expired': HoldExpiredData;
  'reservation-reminder': ReservationReminderData;
  'bank-transfer-details': BankTransferData;
  'bank-transfer-reminder': BankTransferData;
  'pay-at-venue-pending': PayLaterHeldData;
  'webhook-endpoint-disabled': WebhookEndpointDisabledData;
  'gift-voucher-receipt': GiftVoucherReceiptData;
  'gift-voucher-delivery': GiftVoucherDeliveryData;
}
export type TemplateName = keyof TemplateDataMap;

/** An attachment a template adds (the caller's own attachments are added to these). */
export interface TemplateAttachment {
  filename: string;
  contentType: string;
  content: Buffer;
  contentId?: string;
}

interface TemplateDefinition<T> {
  /** Derived variables and attachments (e.g. the QR image) for one rendering. */
  prepare(data: T): Promise<{ vars?: Record<string, unknown>; attachments?: TemplateAttachment[] }>;
}

export const CHECK_IN_QR_CONTENT_ID = 'checkin-qr@venue';

const DEFINITIONS: { [K in TemplateName]: TemplateDefinition<TemplateDataMap[K]> } = {
  'reservation-confirmation': {
    async prepare(data) {
      for (const field of ['guestName', 'showName', 'reservationReference', 'checkInToken'] as const) {
        if (typeof data[field] !== 'string' || data[field] === '') throw new TypeError(`reservation-confirmation: ${field} is required`);
      }
      if (!Number.isInteger(data.partySize) || data.partySize < 1) throw new TypeError('reservation-confirmation: partySize must be a positive integer');
      if (!Number.isSafeInteger(data.totalVnd) || data.totalVnd < 0) throw new TypeError('reservation-confirmation: totalVnd must be a whole number of VND');
      if (Number.isNaN(new Date(data.startsAt).getTime())) throw new TypeError('reservation-confirmation: startsAt must be a date');
      if (data.price) checkPrice(data.price);
      if (data.dueAtVenueVnd !== undefined && data.dueAtVenueVnd !== null) requireVnd('reservation-confirmation', 'dueAtVenueVnd', data.dueAtVenueVnd);
      const png = await checkInQrPng(data.checkInToken);
      // The QR twice: inline in the HTML (cid:), and as a file a guest can save or print (the text part names it).
      const qrFilename = `check-in-${safeFilePart(data.reservationReference)}.png`;
      const attachments: TemplateAttachment[] = [
        { filename: 'check-in.png', contentType: 'image/png', content: png, contentId: CHECK_IN_QR_CONTENT_ID },
        { filename: qrFilename, contentType: 'image/png', content: png },
      ];
      let calendarFilename: string | null = null;
      if (data.endsAt) {
        calendarFilename = `${safeFilePart(data.reservationReference)}.ics`;
        attachments.push({ filename: calendarFilename, contentType: 'text/calendar', content: Buffer.from(await calendarEvent(data), 'utf8') });
      }
      return { vars: { qrContentId: CHECK_IN_QR_CONTENT_ID, qrFilename, calendarFilename }, attachments };
    },
  },
  'test-message': {
    async prepare() {
      return {};
    },
  },
  'reservation-cancelled': {
    async prepare(data) {
      for (const field of ['guestName', 'showName', 'reservationReference'] as const) {
        if (typeof data[field] !== 'string' || data[field] === '') throw new TypeError(`reservation-cancelled: ${field} is required`);
      }
      if (!Number.isInteger(data.partySize) || data.partySize < 1) throw new TypeError('reservation-cancelled: partySize must be a positive integer');
      if (!Number.isSafeInteger(data.paidVnd) || data.paidVnd < 0) throw new TypeError('reservation-cancelled: paidVnd must be a whole number of VND');
      if (Number.isNaN(new Date(data.startsAt).getTime())) throw new TypeError('reservation-cancelled: startsAt must be a date');
      return {};
    },
  },
  'customer-message': {
    async prepare(data) {
      for (const field of ['guestName', 'subject', 'body'] as const) {
        if (typeof data[field] !== 'string' || data[field].trim() === '') throw new TypeError(`customer-message: ${field} is required`);
      }
      // Paragraphs (blank-line separated) and their line breaks; the template escapes every piece.
      const paragraphs = data.body
        .replace(/\r\n?/g, '\n')
        .split(/\n\s*\n/)
        .map((paragraph) => paragraph.split('\n').map((line) => line.trimEnd()))
        .filter((lines) => lines.some((line) => line !== ''));
      return { vars: { paragraphs } };
    },
  },
  'inquiry-acknowledgement': { prepare: async () => ({}) },
  'inquiry-notification': { prepare: async () => ({}) },
  'inquiry-follow-up': { prepare: async () => ({}) },
  'waitlist-offer': { prepare: async () => ({}) },
  'chat-transcript': {
    async prepare(data) {
      if (!Array.isArray(data.messages) || data.messages.length === 0) throw new TypeError('chat-transcript: messages are required');
      return {};
    },
  },
  'reservation-cancelled-by-venue': { prepare: async (data) => checkCancellation('reservation-cancelled-by-venue', data) },
  'reservation-cancelled-by-guest': { prepare: async (data) => checkCancellation('reservation-cancelled-by-guest', data) },
  'refund-completed': { prepare: async (data) => checkRefund('refund-completed', data) },
  'refund-failed': { prepare: async (data) => checkRefund('refund-failed', data) },
  'hold-expired': {
    async prepare(data) {
      requireText('hold-expired', data, ['guestName', 'showName', 'reservationReference', 'bookAgainUrl']);
      requireDate('hold-expired', data.startsAt);
      return {};
    },
  },
  'bank-transfer-details': { prepare: async (data) => checkBankTransfer('bank-transfer-details', data) },
  'bank-transfer-reminder': { prepare: async (data) => checkBankTransfer('bank-transfer-reminder', data) },
  'pay-at-venue-pending': { prepare: async (data) => checkPayLaterHeld('pay-at-venue-pending', data) },
  'reservation-reminder': {
    async prepare(data) {
      requireText('reservation-reminder', data, ['guestName', 'showName', 'reservationReference']);
      requireDate('reservation-reminder', data.startsAt);
      requireVnd('reservation-reminder', 'dueVnd', data.dueVnd);
      return {};
    },
  },
  'gift-voucher-receipt': {
    async prepare(data) {
      requireText('gift-voucher-receipt', data, ['buyerName', 'recipientName', 'recipientEmail', 'orderReference', 'deliveryDate']);
      requireVnd('gift-voucher-receipt', 'amountVnd', data.amountVnd);
      requireDate('gift-voucher-receipt', data.expiresAt);
      return {};
    },
  },
  'gift-voucher-delivery': {
    async prepare(data) {
      requireText('gift-voucher-delivery', data, ['recipientName', 'buyerName', 'voucherCode', 'bookUrl', 'pdfFilename']);
      requireVnd('gift-voucher-delivery', 'amountVnd', data.amountVnd);
      requireDate('gift-voucher-delivery', data.expiresAt);
      return {};
    },
  },
  'webhook-endpoint-disabled': {
    async prepare(data) {
      requireText('webhook-endpoint-disabled', data, ['endpointUrl', 'lastError']);
      requireDate('webhook-endpoint-disabled', data.failingSince);
      requireDate('webhook-endpoint-disabled', data.disabledAt);
      return {};
    },
  },
};

function requireText(template: string, data: object, fields: string[]): void {
  for (const field of fields) {
    const value = (data as Record<string, unknown>)[field];
    if (typeof value !== 'string' || value === '') throw new TypeError(`${template}: ${field} is required`);
  }
}

function requireDate(template: string, value: unknown): void {
  if (value === null || value === undefined || Number.isNaN(new Date(value as string).getTime())) throw new TypeError(`${template}: startsAt must be a date`);
}

function requireVnd(template: string, field: string, value: unknown): void {
  if (!Number.isSafeInteger(value) || (value as number) < 0) throw new TypeError(`${template}: ${field} must be a whole number of VND`);
}

function checkPrice(price: PriceBreakdown): void {
  for (const field of ['subtotalVnd', 'promoDiscountVnd', 'referralDiscountVnd', 'serviceChargeVnd', 'vatVnd', 'voucherCreditVnd', 'totalVnd', 'paidVnd', 'dueVnd'] as const) {
    requireVnd('reservation-confirmation', `price.${field}`, price[field]);
  }
}

async function checkCancellation(template: string, data: ReservationCancellationData) {
  requireText(template, data, ['guestName', 'showName', 'reservationReference', 'bookAgainUrl']);
  requireDate(template, data.startsAt);
  requireVnd(template, 'paidVnd', data.paidVnd);
  if (!Array.isArray(data.refunds)) throw new TypeError(`${template}: refunds must be a list`);
  for (const line of data.refunds) requireVnd(template, 'refunds[].amountVnd', line.amountVnd);
  const refundedVnd = data.refunds.filter((line) => line.state !== 'FAILED').reduce((sum, line) => sum + line.amountVnd, 0);
  return { vars: { refundedVnd } };
}

function checkPayLaterHeld(template: string, data: PayLaterHeldData) {
  requireText(template, data, ['guestName', 'showName', 'reservationReference']);
  requireDate(template, data.startsAt);
  if (Number.isNaN(new Date(data.payBy).getTime())) throw new TypeError(`${template}: payBy must be a date`);
  if (!Number.isInteger(data.partySize) || data.partySize < 1) throw new TypeError(`${template}: partySize must be a positive integer`);
  requireVnd(template, 'amountVnd', data.amountVnd);
  return {};
}

function checkBankTransfer(template: string, data: BankTransferData) {
  requireText(template, data, ['bankName', 'accountName', 'accountNumber', 'transferReference']);
  return checkPayLaterHeld(template, data);
}

async function checkRefund(template: string, data: RefundOutcomeData) {
  requireText(template, data, ['guestName', 'showName', 'reservationReference', 'gateway']);
  requireDate(template, data.startsAt);
  requireVnd(template, 'amountVnd', data.amountVnd);
  return { vars: { onSite: data.gateway !== 'VNPAY' } };
}

/** A reference as a file name part (`VN-7K3Q9P`): letters, digits and dashes only. */
const safeFilePart = (value: string) => value.replace(/[^\w-]+/g, '_').slice(0, 60) || 'booking';

/**
 * The `.ics` (iCalendar, RFC 5545) of the booked performance, made with the `ics` library: DTSTART/DTEND in UTC
 * (calendar apps show them in the reader's zone), the show as SUMMARY, the venue as LOCATION, the manage-booking
 * page as URL, and a UID stable per reservation (a second copy updates the same calendar entry). The page is linked
 * without the guest's token: calendars are shared, synced and published, and the token would let anyone who sees
 * the entry cancel the booking or pull its ticket. `ics` is loaded with the first confirmation, not at start.
 */
export async function calendarEvent(data: ReservationConfirmationData): Promise<string> {
  const { createEvent } = await import('ics');
  const start = new Date(data.startsAt).getTime();
  const end = new Date(data.endsAt ?? data.startsAt).getTime();
  const managePage = data.manageUrl ? withoutGuestToken(data.manageUrl) : null;
  const description = [`${data.reservationReference}`, `${data.partySize} × ${data.offerName ?? data.showName}`, managePage ?? '']
    .filter(Boolean)
    .join('\n');
  const { error, value } = createEvent({
    uid: `${safeFilePart(data.reservationReference)}@reservations`,
    productId: 'venue/reservations',
    method: 'PUBLISH',
    title: data.showName,
    start,
    startInputType: 'utc',
    startOutputType: 'utc',
    end: Math.max(end, start + 60_000),
    endInputType: 'utc',
    endOutputType: 'utc',
    description,
    ...(data.location ? { location: data.location } : {}),
    ...(managePage ? { url: managePage } : {}),
    status: 'CONFIRMED',
    busyStatus: 'BUSY',
  });
  if (error || !value) throw new Error(`reservation-confirmation: the calendar event could not be made: ${error?.message ?? 'no value'}`);
  return value;
}

export function isTemplateName(name: string): name is TemplateName {
  return Object.hasOwn(DEFINITIONS, name);
}

const TEMPLATES_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), 'templates');

const htmlEta = new Eta({ autoEscape: true, cache: true, useWith: false });
// The text part keeps its line ends as written (Eta trims the newline after a tag by default).
const plainEta = new Eta({ autoEscape: false, autoTrim: false, cache: true, useWith: false });

interface CompiledTemplate {
  subject: ReturnType<Eta['compile']>;
  html: ReturnType<Eta['compile']>;
  text: ReturnType<Eta['compile']>;
}

const compiled = new Map<string, CompiledTemplate | null>();
let layout: ReturnType<Eta['compile']> | undefined;

function load(name: TemplateName, locale: Locale): CompiledTemplate | null {
  const key = `${name}.${locale}`;
  if (compiled.has(key)) return compiled.get(key)!;
  const file = path.join(TEMPLATES_DIR, `${key}.eta`);
  let result: CompiledTemplate | null = null;
  if (fs.existsSync(file)) {
    const sections = parseSections(fs.readFileSync(file, 'utf8'), file);
    result = {
      subject: plainEta.compile(sections.subject),
      html: htmlEta.compile(sections.html),
      text: plainEta.compile(sections.text),
    };
  }
  compiled.set(key, result);
  return result;
}

function parseSections(source: string, file: string): Record<'subject' | 'html' | 'text', string> {
  const parts: Record<string, string> = {};
  const marker = /^=== (subject|html|text) ===\r?\n/gm;
  const found = [...source.matchAll(marker)];
  found.forEach((match, index) => {
    const start = match.index! + match[0].length;
    const end = index + 1 < found.length ? found[index + 1].index! : source.length;
    parts[match[1]] = source.slice(start, end);
  });
  for (const section of ['subject', 'html', 'text']) {
    if (parts[section] === undefined) throw new Error(`${file}: missing the "=== ${section} ===" section`);
  }
  return parts as Record<'subject' | 'html' | 'text', string>;
}

/** `vi`, `vi-VN`, `VI` → `vi`; anything without its template file → `en`. */
export function resolveLocale(name: TemplateName, requested: string | undefined | null): Locale {
  const primary = (requested ?? '').trim().toLowerCase().split(/[-_]/)[0];
  const locale = (LOCALES as readonly string[]).includes(primary) ? (primary as Locale) : DEFAULT_LOCALE;
  return load(name, locale) ? locale : DEFAULT_LOCALE;
}

const FOOTERS: Record<Locale, (venue: string) => string> = {
  en: (venue) => `${venue}. You receive this e-mail because of a reservation or a request you made.`,
  vi: (venue) => `${venue}. Quý khách nhận được thư này vì đã đặt chỗ hoặc gửi yêu cầu cho chúng tôi.`,
};

/** Locale-aware formatters handed to every template. */
export function formatters(locale: Locale, timeZone: string = VENUE_TIME_ZONE) {
  const tag = locale === 'vi' ? 'vi-VN' : 'en-GB';
  const vnd = locale === 'vi' ? new Intl.NumberFormat('vi-VN', { style: 'currency', currency: 'VND' }) : new Intl.NumberFormat('en-US');
  const fullDate = new Intl.DateTimeFormat(tag, { dateStyle: 'full', timeZone });
  const time = new Intl.DateTimeFormat(tag, { hour: '2-digit', minute: '2-digit', hourCycle: 'h23', timeZone });
  const date = new Intl.DateTimeFormat(tag, { day: 'numeric', month: 'long', year: 'numeric', timeZone });
  return {
    /** en: `1,500,000 VND`; vi: `1.500.000 ₫`. */
    formatVnd: (amount: number) => (locale === 'vi' ? vnd.format(amount) : `${vnd.format(amount)} VND`),
    /** en: `Saturday, 5 December 2026 at 19:30`; vi: `19:30, Thứ Bảy, 5 tháng 12, 2026` (venue time). */
    formatDateTime: (value: string | Date) => {
      const when = new Date(value);
      return locale === 'vi' ? `${time.format(when)}, ${fullDate.format(when)}` : `${fullDate.format(when)} at ${time.format(when)}`;
    },
    formatDate: (value: string | Date) => date.format(new Date(value)),
    /** `19:30` (venue time). */
    formatTime: (value: string | Date) => time.format(new Date(value)),
    /** A percentage as set up (`5`, `8.5`). */
    formatPercent: (value: number) => `${Number(value).toLocaleString(tag, { maximumFractionDigits: 2 })}%`,
  };
}

export interface RenderedEmail {
  locale: Locale;
  subject: string;
  html: string;
  text: string;
  attachments: TemplateAttachment[];
}

/** Renders one template in the requested locale (or `en`), with the attachments the template adds. */
export async function renderTemplate<K extends TemplateName>(
  name: K,
  requestedLocale: string | undefined | null,
  data: TemplateDataMap[K],
  options: { venueName: string; timeZone?: string },
): Promise<RenderedEmail> {
  if (!isTemplateName(name)) throw new TypeError(`unknown e-mail template "${name}"`);
  const locale = resolveLocale(name, requestedLocale);
  const template = load(name, locale);
  if (!template) throw new Error(`e-mail template "${name}" has no ${DEFAULT_LOCALE} file`);
  const prepared = await (DEFINITIONS[name] as TemplateDefinition<TemplateDataMap[K]>).prepare(data);
  const it = { ...data, ...prepared.vars, ...formatters(locale, options.timeZone), locale, venueName: options.venueName };
  const subject = template.subject.call(plainEta, it).replace(/\s+/g, ' ').trim();
  const body = template.html.call(htmlEta, it);
  layout ??= htmlEta.compile(fs.readFileSync(path.join(TEMPLATES_DIR, 'layout.html.eta'), 'utf8'));
  const html = layout.call(htmlEta, { locale, subject, body, footer: FOOTERS[locale](options.venueName) });
  const text = template.text.call(plainEta, it).replace(/\n{3,}/g, '\n\n').trim() + '\n';
  return { locale, subject, html, text, attachments: prepared.attachments ?? [] };
}
