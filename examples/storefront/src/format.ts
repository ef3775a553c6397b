import type { Locale } from './i18n.ts';

/** Whole VND, as the guest reads it: "1.500.000 ₫" (vi) or "₫1,500,000" (en). */
export function vnd(amount: number, locale: Locale): string {
  return new Intl.NumberFormat(locale === 'vi' ? 'vi-VN' : 'en-US', { style: 'currency', currency: 'VND', maximumFractionDigits: 0 }).format(amount);
}
