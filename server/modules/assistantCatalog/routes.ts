/**
 * The public (guest) website's routes: the only venue links the assistant writes (DOMAIN.md: absolute,
 * locale-prefixed, `<PUBLIC_SITE_URL>/<locale>/…`). Built in this one place, so `catalog/routes`, each show's
 * `showUrl` and each event's `bookingUrl` can never disagree.
 */
export interface SiteRoutes {
  locale: string;
  baseUrl: string;
  pages: { home: string; shows: string; inquiries: string; waitlist: string; partners: string; giftVouchers: string };
  patterns: { show: string; booking: string };
  show(slug: string): string;
  booking(eventSlug: string): string;
}

export function siteRoutes(publicSiteUrl: string, locale: string): SiteRoutes {
  const baseUrl = `${publicSiteUrl.replace(/\/+$/, '')}/${encodeURIComponent(locale)}`;
  return {
    locale,
    baseUrl,
    pages: {
      home: baseUrl,
      shows: `${baseUrl}/shows`,
      inquiries: `${baseUrl}/inquiries`,
      waitlist: `${baseUrl}/waitlist`,
      partners: `${baseUrl}/partners`,
      giftVouchers: `${baseUrl}/gift-vouchers`,
    },
    patterns: { show: `${baseUrl}/shows/{slug}`, booking: `${baseUrl}/book/{eventSlug}` },
    show: (slug) => `${baseUrl}/shows/${encodeURIComponent(slug)}`,
    booking: (eventSlug) => `${baseUrl}/book/${encodeURIComponent(eventSlug)}`,
  };
}
