import { buildOffer } from '../offers/factories.ts';
import { buildEvent, ON_SALE } from '../showEvents/factories.ts';
import { buildShow } from '../shows/factories.ts';

/**
 * What a booking needs: a published show with one event `days` ahead on sale and one offer for it, each row built
 * by its module's factory.
 */
export async function bookableEvent(overrides: { capacity?: number; days?: number; price?: number; minGuests?: number; maxGuests?: number } = {}) {
  const show = await buildShow({ status: 'PUBLISHED' });
  const startsAt = new Date(Date.now() + (overrides.days ?? 10) * 86_400_000);
  const event = await buildEvent(show, { ...ON_SALE, startsAt, capacity: overrides.capacity ?? 120 });
  const offer = await buildOffer({ showId: show.id, pricePerGuestVnd: overrides.price ?? 1_500_000, minGuests: overrides.minGuests ?? 1, maxGuests: overrides.maxGuests ?? 10 });
  return { show, event, offer, startsAt };
}

/** A guest's contact, as the public booking route takes it. */
export const contact = (n = 1) => ({ name: `Guest ${n}`, email: `guest${n}@example.com`, phone: '+84 90 123 4567', locale: 'vi' });
