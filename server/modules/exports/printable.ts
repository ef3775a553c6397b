import type { Readable } from 'node:stream';
import { pdfFonts } from '../../platform/pdfFonts.ts';
import { dietaryText, itemsText, localTime, notesText, type NightList, type Party } from './nightLists.ts';

/**
 * The night's lists as printable PDF (issue 36 §2): A4 landscape, DejaVu Sans embedded (Vietnamese rendered),
 * one table per group (a table of the floor, or an arrival slot) with its heading, the performance and the totals
 * on top, "page n of m" at the foot. Drawn with pdfkit's own text and table API; pdfkit is loaded at the first list
 * printed, not at boot.
 */

export type ListKind = 'door' | 'kitchen';

const MARGIN = 32;
const HEADER_FILL = '#e6e6e6';

/** `1.500.000 ₫` (vi) or `1,500,000 ₫` (en): whole VND. */
function vnd(amount: number, locale: string): string {
  return `${new Intl.NumberFormat(locale === 'vi' ? 'vi-VN' : 'en-US', { maximumFractionDigits: 0 }).format(amount)} ₫`;
}

interface Column {
  header: string;
  width: number | '*';
  align?: 'left' | 'right' | 'center';
  cell: (party: Party) => string;
}

function columnsOf(list: NightList, kind: ListKind): Column[] {
  const l = list.labels;
  const money = (amount: number) => vnd(amount, list.locale);
  if (kind === 'door') {
    return [
      { header: l.reference, width: 62, cell: (party) => party.reference },
      { header: l.name, width: 120, cell: (party) => [party.name, party.phone].filter(Boolean).join('\n') },
      { header: l.guests, width: 42, align: 'right', cell: (party) => String(party.guests) },
      { header: l.offer, width: 90, cell: (party) => party.offerName },
      { header: l.dietary, width: '*', cell: (party) => dietaryText(party, l) },
      { header: l.notes, width: 110, cell: notesText },
      { header: l.paid, width: 72, align: 'right', cell: (party) => money(party.paidVnd) },
      { header: l.due, width: 72, align: 'right', cell: (party) => (party.dueVnd > 0 ? money(party.dueVnd) : '—') },
      { header: l.checkedIn, width: 50, align: 'center', cell: (party) => (party.checkedInAt ? `✓ ${localTime(party.checkedInAt, list.zone)}` : '☐') },
    ];
  }
  return [
    { header: l.table, width: 44, cell: (party) => party.tableCode ?? '—' },
    { header: l.reference, width: 62, cell: (party) => party.reference },
    { header: l.name, width: 100, cell: (party) => party.name },
    { header: l.guests, width: 42, align: 'right', cell: (party) => String(party.guests) },
    { header: l.offer, width: 90, cell: (party) => party.offerName },
    { header: l.toPrepare, width: 150, cell: itemsText },
    { header: l.dietary, width: '*', cell: (party) => dietaryText(party, l) },
    { header: l.notes, width: 110, cell: notesText },
  ];
}

/** The PDF as a stream (pdfkit's document is the stream); the whole list is laid out before it is returned. */
export async function nightListPdf(list: NightList, kind: ListKind, printedAt: Date): Promise<Readable> {
  const [{ default: PDFDocument }, fonts] = await Promise.all([import('pdfkit'), pdfFonts()]);
  const l = list.labels;
  const title = kind === 'door' ? l.doorList : l.kitchenList;
  const doc = new PDFDocument({
    size: 'A4',
    layout: 'landscape',
    margin: MARGIN,
    bufferPages: true,
    lang: list.locale,
    info: { Title: `${title} — ${list.event.showTitle}`, Creator: 'Venue backend' },
  });
  doc.registerFont('regular', fonts.regular);
  doc.registerFont('bold', fonts.bold);

  const when = `${localTime(list.event.startsAt, list.zone, 'cccc yyyy-LL-dd HH:mm', list.locale)}${list.event.doorsAt ? ` · ${l.doors} ${localTime(list.event.doorsAt, list.zone)}` : ''}`;
  doc.font('bold').fontSize(16).text(title);
  doc.font('bold').fontSize(12).text(list.event.showTitle);
  doc.font('regular').fontSize(10).text(when);
  const { totals } = list;
  doc.text(l.summary(totals.parties, totals.guests, totals.partiesIn, totals.guestsIn));
  if (kind === 'door') doc.text(l.dueSummary(vnd(totals.paidVnd, list.locale), vnd(totals.dueVnd, list.locale)));
  doc.moveDown(0.5);

  if (kind === 'kitchen') summaryTables(doc, list);

  const columns = columnsOf(list, kind);
  if (list.groups.length === 0) doc.font('regular').fontSize(10).text(l.nobody);
  for (const group of list.groups) {
    doc.moveDown(0.6);
    doc.font('bold').fontSize(11).text(group.label, MARGIN);
    doc.moveDown(0.2);
    doc.font('regular').fontSize(9);
    doc.table({
      columnStyles: columns.map((column) => ({ width: column.width, align: { x: column.align ?? 'left', y: 'top' } })),
      rowStyles: (row) => (row === 0 ? { backgroundColor: HEADER_FILL } : undefined),
      defaultStyle: { border: 0.5, borderColor: '#999999', padding: 3 },
      data: [columns.map((column) => ({ text: column.header, font: { src: 'bold' }, type: 'TH' as const })), ...group.parties.map((party) => columns.map((column) => column.cell(party)))],
    });
  }

  footers(doc, `${l.printedAt} ${localTime(printedAt, list.zone, 'yyyy-LL-dd HH:mm')}`, l.page);
  doc.end();
  return doc as unknown as Readable;
}

/** The kitchen's totals: each item to prepare, and the guests per dietary need. */
function summaryTables(doc: PDFKit.PDFDocument, list: NightList): void {
  const l = list.labels;
  if (list.toPrepare.length) {
    doc.moveDown(0.4);
    doc.font('bold').fontSize(11).text(l.toPrepare, MARGIN);
    doc.moveDown(0.2);
    doc.font('regular').fontSize(9);
    doc.table({
      columnStyles: [80, 220, 90, { width: 60, align: { x: 'right', y: 'top' } }, '*'],
      rowStyles: (row) => (row === 0 ? { backgroundColor: HEADER_FILL } : undefined),
      defaultStyle: { border: 0.5, borderColor: '#999999' },
      data: [
        [l.itemCode, l.item, l.kind, l.quantity, l.dietaryTags].map((text) => ({ text, font: { src: 'bold' }, type: 'TH' as const })),
        ...list.toPrepare.map((item) => [item.code, item.name, l.kinds[item.kind] ?? item.kind, String(item.quantity), item.dietaryTags.join(', ')]),
      ],
    });
  }
  if (list.dietaryNeeds.length) {
    doc.moveDown(0.6);
    doc.font('bold').fontSize(11).text(l.dietaryNeeds, MARGIN);
    doc.moveDown(0.2);
    doc.font('regular').fontSize(9);
    doc.table({
      columnStyles: [220, { width: 60, align: { x: 'right', y: 'top' } }],
      rowStyles: (row) => (row === 0 ? { backgroundColor: HEADER_FILL } : undefined),
      defaultStyle: { border: 0.5, borderColor: '#999999' },
      data: [
        [l.dietaryNeeds, l.guests].map((text) => ({ text, font: { src: 'bold' }, type: 'TH' as const })),
        ...list.dietaryNeeds.map((need) => [l.preferences[need.preference] ?? need.preference, String(need.guests)]),
      ],
    });
  }
}

/** "Printed …" and "Page n of m" at the foot of every page (pages are buffered until the count is known). */
function footers(doc: PDFKit.PDFDocument, printed: string, page: (n: number, of: number) => string): void {
  const range = doc.bufferedPageRange();
  for (let index = range.start; index < range.start + range.count; index++) {
    doc.switchToPage(index);
    // Writing below the bottom margin would otherwise start a new page.
    const bottom = doc.page.margins.bottom;
    doc.page.margins.bottom = 0;
    const y = doc.page.height - MARGIN + 8;
    const width = doc.page.width - 2 * MARGIN;
    doc.font('regular').fontSize(8).fillColor('#555555');
    doc.text(printed, MARGIN, y, { width, align: 'left', lineBreak: false });
    doc.text(page(index - range.start + 1, range.count), MARGIN, y, { width, align: 'right', lineBreak: false });
    doc.fillColor('black');
    doc.page.margins.bottom = bottom;
  }
}
