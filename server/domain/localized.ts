/** Per-locale text as stored (`{"en": "…", "vi": "…"}`); every locale of SITE_LOCALES may appear. */
export type LocalizedText = Record<string, string>;

/**
 * The text for `locale`, falling back to the default locale, then to any locale that has text (a row written
 * before a locale was added to SITE_LOCALES still reads), then to ''.
 */
export function pickLocale(text: LocalizedText | null | undefined, locale: string, defaultLocale: string): string {
  if (!text) return '';
  return text[locale] || text[defaultLocale] || Object.values(text).find(Boolean) || '';
}

/** Every locale of `locales` filled in: the text's own, else the default locale's (what staff views show). */
export function fillLocales(text: LocalizedText | null | undefined, locales: readonly string[], defaultLocale: string): LocalizedText {
  const filled: LocalizedText = {};
  for (const locale of locales) filled[locale] = pickLocale(text, locale, defaultLocale);
  return filled;
}

/** Locales in `text` that SITE_LOCALES does not list (a 422 on write, so no text is stored unreachable). */
export function unknownLocales(text: LocalizedText | null | undefined, locales: readonly string[]): string[] {
  return Object.keys(text ?? {}).filter((locale) => !locales.includes(locale));
}
