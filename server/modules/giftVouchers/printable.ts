import { pdfFonts } from '../../platform/pdfFonts.ts';

/**
 * The printable gift voucher (issue 36 §1): one A5 landscape page with DejaVu Sans embedded (Vietnamese diacritics
 * rendered), drawn with pdfkit's text API — the venue, the amount, who it is for and from, the message, the code and
 * how to use it, the expiry. pdfkit is loaded at the first voucher printed, not at boot.
 */

export interface PrintableVoucher {
  venueName: string;
  locale: 'en' | 'vi';
  recipientName: string;
  buyerName: string;
  amountVnd: number;
  code: string;
  message: string | null;
  /** The last day it is valid, already written for the reader (`24/12/2029`). */
  validUntil: string;
  bookUrl: string;
}

const LABELS = {
  en: {
    title: 'Gift voucher',
    for: 'For',
    from: 'From',
    code: 'Code',
    validUntil: 'Valid until',
    howTo: (url: string) => `Enter the code when you book on ${url}: it pays all or part of the booking; what is left stays on the voucher.`,
  },
  vi: {
    title: 'Phiếu quà tặng',
    for: 'Dành tặng',
    from: 'Người tặng',
    code: 'Mã phiếu',
    validUntil: 'Có giá trị đến',
    howTo: (url: string) => `Nhập mã khi đặt chỗ tại ${url}: phiếu thanh toán toàn bộ hoặc một phần đơn đặt chỗ; phần còn lại được giữ trên phiếu.`,
  },
} as const;

/** `1.500.000 ₫` (vi) or `1,500,000 ₫` (en). */
const vnd = (amount: number, locale: 'en' | 'vi') => `${new Intl.NumberFormat(locale === 'vi' ? 'vi-VN' : 'en-US', { maximumFractionDigits: 0 }).format(amount)} ₫`;

/** The voucher as PDF bytes (it goes into an e-mail's attachment). */
export async function giftVoucherPdf(voucher: PrintableVoucher): Promise<Buffer> {
  const [{ default: PDFDocument }, fonts] = await Promise.all([import('pdfkit'), pdfFonts()]);
  const l = LABELS[voucher.locale];
  const doc = new PDFDocument({ size: 'A5', layout: 'landscape', margin: 36, lang: voucher.locale, info: { Title: `${l.title} ${voucher.code}`, Creator: voucher.venueName } });
  doc.registerFont('regular', fonts.regular);
  doc.registerFont('bold', fonts.bold);
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });

  const { width, height } = doc.page;
  doc.rect(18, 18, width - 36, height - 36).lineWidth(2).stroke('#c9a227');
  doc.font('bold').fontSize(12).fillColor('#555555').text(voucher.venueName, { align: 'center' });
  doc.moveDown(0.3);
  doc.font('bold').fontSize(26).fillColor('#000000').text(l.title, { align: 'center' });
  doc.font('bold').fontSize(30).fillColor('#8a6d00').text(vnd(voucher.amountVnd, voucher.locale), { align: 'center' });
  doc.moveDown(0.5);
  doc.font('regular').fontSize(12).fillColor('#000000');
  doc.text(`${l.for}: ${voucher.recipientName}`, { align: 'center' });
  doc.text(`${l.from}: ${voucher.buyerName}`, { align: 'center' });
  if (voucher.message) {
    doc.moveDown(0.5);
    doc.font('regular').fontSize(11).fillColor('#333333').text(`“${voucher.message}”`, { align: 'center' });
  }
  doc.moveDown(0.8);
  doc.font('bold').fontSize(18).fillColor('#000000').text(`${l.code}: ${voucher.code}`, { align: 'center' });
  doc.font('regular').fontSize(11).text(`${l.validUntil} ${voucher.validUntil}`, { align: 'center' });
  doc.moveDown(0.6);
  doc.fontSize(9).fillColor('#555555').text(l.howTo(voucher.bookUrl), { align: 'center' });
  doc.end();
  return done;
}
