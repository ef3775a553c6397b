import { Readable } from 'node:stream';
import { localToday } from '../../domain/venueTime.ts';
import { primed } from '../../platform/db/keyset.ts';
import type { Call, OperationHandlers } from '../../platform/http/handler.ts';
import { stream } from '../../platform/http/handler.ts';
import { TABULAR_MEDIA_TYPES, tabularStream, type TabularFormat } from '../../platform/tabular.ts';
import { LABELS, listLocale } from './labels.ts';
import { customersSheet, inquiriesSheet, paymentsSheet, refundsSheet, reservationsSheet, waitlistSheet, type ExportContext, type ListSheet } from './lists.ts';
import { doorListSheets, kitchenListSheets, nightList, type Grouping } from './nightLists.ts';
import { nightListPdf, type ListKind } from './printable.ts';

/**
 * Exports (issue 36 §2). Each list export reads its owner's rows with the owner's filters in keyset batches and
 * streams them as CSV or XLSX; the night's lists of one performance are laid out whole (a performance is bounded
 * by its capacity) as PDF or XLSX. Every file is an attachment, never cached (`no-store`: personal data), and
 * each export is logged with who took it and how many rows it held.
 */

/**
 * Money in spreadsheets: whole VND with thousands separators and the đồng sign, in Excel's locale-tagged currency
 * form (`[$₫-42A]`: the ₫ of Vietnamese, LCID 0x042A), so the cell stays a number a formula can sum.
 */
const VND_FORMAT = '#,##0 [$₫-42A]';
const XLSX = TABULAR_MEDIA_TYPES.xlsx;

function context(call: Call): ExportContext {
  return { knex: call.app.db.knex, zone: call.app.config.venueTimezone, defaultLocale: call.app.config.defaultLocale, now: new Date() };
}

/** `reservations-2026-12-05.csv`: what, and the venue's date it was taken. */
const fileName = (call: Call, stem: string, extension: string) => `${stem}-${localToday(call.app.config.venueTimezone)}.${extension}`;

/** Logs the export once the file is out: which, by whom, how many rows (the audit of who took personal data). */
const logged = (call: Call, name: string) => (rows: number) => call.log.info({ export: name, rows, role: call.auth.role, authSource: call.auth.authSource, accountId: call.auth.identity.accountId ?? null, apiKeyId: call.auth.identity.apiKeyId ?? null }, 'export sent');

/** One list export: its first batch read now (a bad filter is the request's 4xx), the rest as the client takes it. */
async function sendList(call: Call, name: string, sheet: ListSheet, format: TabularFormat | undefined) {
  const chosen = format ?? 'csv';
  const rows = await primed(sheet.rows as AsyncGenerator<Record<string, any>[], void, undefined>);
  const body = tabularStream(chosen, [{ ...sheet, rows }], { timeZone: call.app.config.venueTimezone, moneyFormat: VND_FORMAT, onEnd: logged(call, name) });
  return stream(body, TABULAR_MEDIA_TYPES[chosen], { filename: fileName(call, name, chosen), headers: { 'Cache-Control': 'no-store' } });
}

/** A performance's door or kitchen list as PDF (default) or XLSX. */
async function sendNightList(call: Call, kind: ListKind, eventId: string, query: { format?: 'pdf' | 'xlsx'; groupBy?: Grouping; locale?: 'en' | 'vi' }) {
  const locale = listLocale(query.locale, call.app.config.defaultLocale);
  const labels = LABELS[locale];
  const list = await nightList(call.app.db.knex, eventId, {
    grouping: query.groupBy ?? 'table',
    locale,
    labels,
    zone: call.app.config.venueTimezone,
    defaultLocale: call.app.config.defaultLocale,
  });
  const format = query.format ?? 'pdf';
  const title = kind === 'door' ? labels.doorList : labels.kitchenList;
  // `Door list - Đêm Sài Gòn 2026-12-05 1930.pdf`: read by people, so in the list's language (RFC 5987 for the
  // non-ASCII part); characters a file name cannot hold become `-`.
  const stem = `${title} - ${list.event.showTitle} ${toStamp(list.event.startsAt, call.app.config.venueTimezone)}`.replace(/[\\/:*?"<>|\u0000-\u001f]/g, '-');
  const done = logged(call, `${kind}-list`);
  const rows = list.totals.parties;
  const headers = { 'Cache-Control': 'no-store' };
  if (format === 'pdf') {
    const pdf = await nightListPdf(list, kind, new Date());
    pdf.once('end', () => done(rows));
    return stream(pdf, 'application/pdf', { filename: `${stem}.pdf`, headers });
  }
  const sheets = kind === 'door' ? doorListSheets(list) : kitchenListSheets(list);
  const body: Readable = tabularStream('xlsx', sheets, { timeZone: call.app.config.venueTimezone, moneyFormat: VND_FORMAT, onEnd: () => done(rows) });
  return stream(body, XLSX, { filename: `${stem}.xlsx`, headers });
}

const toStamp = (instant: Date, zone: string) => new Intl.DateTimeFormat('sv-SE', { timeZone: zone, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(instant).replace(':', '');

export const handlers = {
  async exportReservations(call) {
    const { format, sort, ...filters } = call.query;
    return sendList(call, 'reservations', reservationsSheet(context(call), { ...filters, sort: sort ?? 'newest' }), format);
  },

  async exportPayments(call) {
    const { format, ...filters } = call.query;
    return sendList(call, 'payments', paymentsSheet(context(call), filters), format);
  },

  async exportRefunds(call) {
    const { format, ...filters } = call.query;
    return sendList(call, 'refunds', refundsSheet(context(call), filters), format);
  },

  async exportCustomers(call) {
    const { format, q, includeDeleted } = call.query;
    return sendList(call, 'customers', customersSheet(context(call), { q, includeDeleted: includeDeleted ?? false }), format);
  },

  async exportWaitlist(call) {
    const { format, ...filters } = call.query;
    return sendList(call, 'waitlist', waitlistSheet(context(call), filters), format);
  },

  async exportInquiries(call) {
    const { format, ...filters } = call.query;
    return sendList(call, 'inquiries', inquiriesSheet(context(call), filters), format);
  },

  exportDoorList: (call) => sendNightList(call, 'door', call.params.eventId, call.query),

  exportKitchenList: (call) => sendNightList(call, 'kitchen', call.params.eventId, call.query),
} satisfies Partial<OperationHandlers>;
