import { DateTime } from 'luxon';

/** How the offline model writes dates, times, prices and links, per answer language and channel. */
export type Lang = 'en' | 'vi';

const VI_WEEKDAYS = ['', 'Thứ Hai', 'Thứ Ba', 'Thứ Tư', 'Thứ Năm', 'Thứ Sáu', 'Thứ Bảy', 'Chủ Nhật'];

/** `Sat 28 Nov` / `Thứ Bảy 28/11`. */
export function dayLabel(day: DateTime, lang: Lang): string {
  return lang === 'vi' ? `${VI_WEEKDAYS[day.weekday]} ${day.toFormat('dd/MM')}` : day.setLocale('en-GB').toFormat('ccc d LLL');
}

/** A venue-local date and time (`2026-11-28`, `20:15`) as `Sat 28 Nov, 20:15` / `20:15 Thứ Bảy 28/11`. */
export function whenLabel(date: string, time: string, lang: Lang): string {
  const day = DateTime.fromISO(date);
  return lang === 'vi' ? `${time} ${dayLabel(day, lang)}` : `${dayLabel(day, lang)}, ${time}`;
}

/** A venue-local date (`2026-11-28`) as words. */
export function isoDayLabel(isoDate: string, lang: Lang): string {
  return dayLabel(DateTime.fromISO(isoDate), lang);
}

/** `2,000,000 VND` / `2.000.000 VND`. */
export function vnd(amount: number, lang: Lang): string {
  return `${new Intl.NumberFormat(lang === 'vi' ? 'vi-VN' : 'en-US', { maximumFractionDigits: 0 }).format(amount)} VND`;
}

/** Markdown on the website and the demo; `label: url` on chat platforms (they show plain text). */
export function link(label: string, url: string, markdown: boolean): string {
  return markdown ? `[${label}](${url})` : `${label}: ${url}`;
}

/** A paragraph shortened at a sentence end near `max` characters. */
export function clip(text: string, max: number): string {
  const clean = text.replace(/\s+\n/g, '\n').trim();
  if (clean.length <= max) return clean;
  const cut = clean.slice(0, max);
  const end = Math.max(cut.lastIndexOf('. '), cut.lastIndexOf('.\n'), cut.lastIndexOf('! '), cut.lastIndexOf('? '));
  return end > max / 2 ? cut.slice(0, end + 1) : `${cut.slice(0, cut.lastIndexOf(' '))}…`;
}
