import { fillLocales, unknownLocales, type LocalizedText } from './localized.ts';
import type { Config } from '../platform/config.ts';
import { UnprocessableFields, type FieldError } from '../platform/http/problem.ts';

/**
 * Per-locale text of the catalog's writes (shows, offers, fulfillment items) and staff views. Shared by those
 * modules.
 */
export type LocaleConfig = Pick<Config, 'siteLocales' | 'defaultLocale'>;

/**
 * The problems with per-locale fields of a write, each pointing at `<prefix>/<field>/<locale>`: a locale
 * SITE_LOCALES does not list (its text could never be read), or text in some locale but none in the default
 * one (the default locale is what fills every missing translation).
 */
export function localizedErrors(fields: Record<string, LocalizedText | undefined>, config: LocaleConfig, prefix = 'body'): FieldError[] {
  const errors: FieldError[] = [];
  for (const [field, text] of Object.entries(fields)) {
    if (text === undefined) continue;
    for (const locale of unknownLocales(text, config.siteLocales)) {
      errors.push({ path: `${prefix}/${field}/${locale}`, message: `is not a site locale (${config.siteLocales.join(', ')})`, code: 'unknown_locale' });
    }
    if (Object.values(text).some(Boolean) && !text[config.defaultLocale]) {
      errors.push({ path: `${prefix}/${field}/${config.defaultLocale}`, message: `text in the default locale (${config.defaultLocale}) is required`, code: 'default_locale_required' });
    }
  }
  return errors;
}

/** A 422 for localized-field problems, its `code` that of the first one (`unknown_locale`, `default_locale_required`). */
export function localizedProblem(errors: FieldError[]) {
  return UnprocessableFields('Per-locale text must use the site locales and have text in the default locale.', errors);
}

/** Throws the 422 when any per-locale field of the write is not acceptable. */
export function assertLocalized(fields: Record<string, LocalizedText | undefined>, config: LocaleConfig, prefix = 'body'): void {
  const errors = localizedErrors(fields, config, prefix);
  if (errors.length) throw localizedProblem(errors);
}

/** Staff view of per-locale text: every site locale, a missing translation filled from the default locale. */
export const staffText = (text: LocalizedText | null | undefined, config: LocaleConfig) => fillLocales(text, config.siteLocales, config.defaultLocale);

/** `<field>/<locale>` for each site locale a field has no own text in (staff see it filled from the default). */
export function untranslated(fields: Record<string, LocalizedText | null | undefined>, config: LocaleConfig): string[] {
  const missing: string[] = [];
  for (const [field, text] of Object.entries(fields)) {
    // An empty optional field (no summary yet) is not a missing translation.
    if (!text || !Object.values(text).some(Boolean)) continue;
    for (const locale of config.siteLocales) if (!text[locale]) missing.push(`${field}/${locale}`);
  }
  return missing;
}
