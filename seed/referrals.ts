import type { VenueClient } from '../sdk/index.ts';
import { countsOf, type SeedCounts } from './catalog.ts';
import { describe, SeedError } from './errors.ts';

/**
 * The demo referral program (issue 12), through the API: two active partners with a guest-discount code and a QR
 * link each, and — once, while a partner has no commission yet — two attributed bookings per partner: the link
 * resolved as the public site would, a hold carrying the attribution token, and the payment recorded at the venue
 * (so each earns its commission). The public directory, profiles and admin metrics then show something.
 * Idempotent: partners, codes and links are found by slug / code before anything is created; bookings are made
 * only for a partner without commissions.
 */
export const DEMO_PARTNERS = [
  {
    name: 'Riverside Boutique Hotel',
    type: 'HOTEL',
    publicSlug: 'riverside-hotel',
    contactEmail: 'concierge@riverside-hotel.example',
    city: 'Ho Chi Minh City',
    description: 'A boutique hotel on the Saigon river; the concierge books the show for guests.',
    descriptionTranslations: { vi: 'Khách sạn boutique bên sông Sài Gòn; quầy lễ tân đặt vé xem show cho khách.' },
    commissionRule: { kind: 'PERCENT', value: 10 },
    code: { code: 'RIVERSIDE10', guestDiscountPercent: 10 },
    link: { slug: 'riverside-lobby', channel: 'QR_STICKER', destination: '/shows', label: 'Lobby sticker' },
  },
  {
    name: 'Saigon Night Tours',
    type: 'TOUR_COMPANY',
    publicSlug: 'saigon-night-tours',
    contactEmail: 'hello@saigon-night-tours.example',
    city: 'Ho Chi Minh City',
    description: 'Evening tours of the city that end at the show.',
    descriptionTranslations: { vi: 'Tour đêm khám phá thành phố, kết thúc bằng buổi diễn.' },
    commissionRule: { kind: 'FIXED_PER_GUEST', value: 100_000 },
    code: { code: 'NIGHTTOURS', guestDiscountPercent: 0 },
    link: { slug: 'night-tours-bus', channel: 'QR_STICKER', destination: '/', label: 'Tour bus sticker' },
  },
] as const;

type Result<T> = { data?: T; error?: unknown; response: Response };

function ok<T>(what: string, result: Result<T>): T {
  if (result.data === undefined) throw new SeedError(`${what} failed: ${describe(result.response.status, result.error)}`);
  return result.data;
}

export async function seedReferrals(client: VenueClient): Promise<SeedCounts> {
  const outcomes: Array<'created' | 'unchanged'> = [];
  const partners = ok('listing referral partners', await client.GET('/api/referral-partners/admin', { params: { query: { limit: 100 } } })).items;
  let guest = 0;
  for (const demo of DEMO_PARTNERS) {
    const { code: demoCode, link: demoLink, ...fields } = demo;
    let partner = partners.find((p) => p.publicSlug === demo.publicSlug);
    if (partner) outcomes.push('unchanged');
    else {
      partner = ok(`creating partner ${demo.publicSlug}`, await client.POST('/api/referral-partners/admin', { body: { ...fields, status: 'ACTIVE', commissionRule: { ...fields.commissionRule } } }));
      outcomes.push('created');
    }
    const codes = ok('listing referral codes', await client.GET('/api/referral-codes', { params: { query: { partnerId: partner.id, limit: 100 } } })).items;
    let code = codes.find((c) => c.code === demoCode.code);
    if (code) outcomes.push('unchanged');
    else {
      code = ok(`creating code ${demoCode.code}`, await client.POST('/api/referral-codes', { body: { ...demoCode, partnerId: partner.id } }));
      outcomes.push('created');
    }
    const links = ok('listing referral links', await client.GET('/api/referral-links', { params: { query: { partnerId: partner.id, limit: 100 } } })).items;
    if (links.some((l) => l.slug === demoLink.slug)) outcomes.push('unchanged');
    else {
      ok(`creating link ${demoLink.slug}`, await client.POST('/api/referral-links', { body: { ...demoLink, partnerId: partner.id, codeId: code.id } }));
      outcomes.push('created');
    }

    const commissions = ok('listing commissions', await client.GET('/api/referral-commissions', { params: { query: { partnerId: partner.id, limit: 1 } } }));
    if (commissions.total > 0 || partner.status !== 'ACTIVE') continue;
    const events = ok('listing public events', await client.GET('/api/public/show-events', { params: { query: { limit: 20 } } })).items;
    const bookable = events.filter((e) => e.offerCodes.length > 0 && !e.cancelled && e.state !== "CLOSED" && e.state !== "SOLD_OUT");
    for (let n = 0; n < 2 && n < bookable.length; n++) {
      const event = bookable[bookable.length - 1 - n];
      guest += 1;
      const resolved = ok(`resolving ${demoLink.slug}`, await client.POST('/api/referral-links/resolve/{slug}', { params: { path: { slug: demoLink.slug } }, body: {} }));
      const email = `referral-demo-${demo.publicSlug}-${n + 1}@example.com`;
      const held = ok(
        'booking an attributed reservation',
        await client.POST('/api/public/reservations', {
          body: {
            eventSlug: event.slug,
            offerCode: event.offerCodes[0],
            guestCount: 2,
            contact: { name: `Referral Guest ${guest}`, email },
            referral: { code: resolved.attribution.code ?? undefined, linkSlug: resolved.attribution.linkSlug, partnerSlug: resolved.attribution.partnerSlug, attributionToken: resolved.attribution.token },
          },
        }),
      );
      const customers = ok('finding the booking', await client.GET('/api/customers', { params: { query: { q: held.reference } } })).items;
      const detail = ok('reading the customer', await client.GET('/api/customers/{customerId}', { params: { path: { customerId: customers[0].id } } }));
      const reservation = detail.bookings.find((b) => b.reference === held.reference);
      if (!reservation) throw new SeedError(`the booking ${held.reference} is not in its customer's history`);
      ok('recording the payment', await client.POST('/api/payments', { body: { reservationId: reservation.id, method: 'CASH', note: 'Demo referral booking' } }));
      outcomes.push('created');
    }
  }
  return countsOf(outcomes);
}
