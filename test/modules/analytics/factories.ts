import { buildOffer } from '../offers/factories.ts';
import { buildEvent, ON_SALE } from '../showEvents/factories.ts';
import { buildShow } from '../shows/factories.ts';

/** What the analytics specs sell: a published show, one event 20 days ahead, one offer at 1 000 000 VND a guest. */
export async function showWithEvent(overrides: { code?: string; title?: Record<string, string> } = {}) {
  const show = await buildShow({ status: 'PUBLISHED', ...(overrides.code ? { code: overrides.code } : {}), ...(overrides.title ? { title: overrides.title } : {}) });
  const event = await buildEvent(show, { ...ON_SALE, startsAt: new Date(Date.now() + 20 * 86_400_000) });
  const offer = await buildOffer({ showId: show.id, pricePerGuestVnd: 1_000_000, minGuests: 1, maxGuests: 20 });
  return { show, event, offer };
}
