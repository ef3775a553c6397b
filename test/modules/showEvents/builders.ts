import { randomUUID } from 'node:crypto';
import { FulfillmentItem } from '../../../server/modules/fulfillment/models.ts';
import { Offer, OfferItem } from '../../../server/modules/offers/models.ts';
import { ShowEvent } from '../../../server/modules/showEvents/models.ts';
import { Show } from '../../../server/modules/shows/models.ts';
import { VenueTable } from '../../../server/modules/tables/models.ts';
import { buildMemberSession } from '../../helpers/factories.ts';
import type { Config } from '../../../server/config.ts';
import { cookieHeader, startTestServer, type TestServer } from '../../helpers/server.ts';

/**
 * Catalog rows for the show-event specs, written straight through the models (the shows, offers and tables
 * modules have their own API; these specs only need their rows).
 */

const suffix = () => randomUUID().replace(/-/g, '').slice(0, 8);

export async function buildShow(overrides: Partial<Pick<Show, 'code' | 'slug' | 'status' | 'title' | 'durationMinutes'>> = {}) {
  const tag = suffix();
  return Show.query().insertAndFetch({
    code: overrides.code ?? `S${tag.toUpperCase().slice(0, 6)}`,
    slug: overrides.slug ?? `show-${tag}`,
    status: overrides.status ?? 'PUBLISHED',
    title: overrides.title ?? { en: `Show ${tag}`, vi: `Chương trình ${tag}` },
    durationMinutes: overrides.durationMinutes ?? 90,
  });
}

export async function buildEvent(show: Show, overrides: Partial<Pick<ShowEvent, 'slug' | 'startsAt' | 'doorsAt' | 'capacity' | 'salesOpen' | 'status' | 'staffNotes' | 'cancelledAt' | 'cancellationReason' | 'completedAt'>> = {}) {
  const startsAt = overrides.startsAt ?? new Date(Date.now() + 7 * 86_400_000);
  return ShowEvent.query().insertAndFetch({
    showId: show.id,
    slug: overrides.slug === undefined ? `${show.slug}-${suffix()}` : overrides.slug,
    startsAt,
    doorsAt: overrides.doorsAt ?? null,
    capacity: overrides.capacity ?? 100,
    salesOpen: overrides.salesOpen ?? false,
    status: overrides.status ?? 'SCHEDULED',
    staffNotes: overrides.staffNotes ?? null,
    cancelledAt: overrides.cancelledAt ?? null,
    cancellationReason: overrides.cancellationReason ?? null,
    completedAt: overrides.completedAt ?? null,
  });
}

export async function buildFulfillmentItem(overrides: Partial<Pick<FulfillmentItem, 'code' | 'name' | 'kind' | 'dietaryTags'>> = {}) {
  const tag = suffix().toUpperCase();
  return FulfillmentItem.query().insertAndFetch({
    code: overrides.code ?? `ITEM-${tag}`,
    name: overrides.name ?? { en: `Item ${tag}` },
    kind: overrides.kind ?? 'MEAL',
    dietaryTags: overrides.dietaryTags ?? [],
  });
}

export async function buildOffer(
  show: Show | null,
  items: Array<[FulfillmentItem, number]> = [],
  overrides: Partial<Pick<Offer, 'code' | 'name' | 'bookingPath' | 'status' | 'sortOrder'>> = {},
) {
  const tag = suffix().toUpperCase();
  const offer = await Offer.query().insertAndFetch({
    code: overrides.code ?? `OFFER-${tag}`,
    showId: show?.id ?? null,
    name: overrides.name ?? { en: `Offer ${tag}` },
    bookingPath: overrides.bookingPath ?? 'DINNER_SHOW',
    experienceType: 'STANDARD',
    pricePerGuestVnd: 1_500_000,
    status: overrides.status ?? 'ACTIVE',
    sortOrder: overrides.sortOrder ?? 0,
  });
  for (const [item, quantityPerGuest] of items) await OfferItem.query().insert({ offerId: offer.id, fulfillmentItemId: item.id, quantityPerGuest });
  return offer;
}

export async function buildTable(zone: VenueTable['zone'], seats: number) {
  return VenueTable.query().insertAndFetch({ code: `T${suffix().toUpperCase().slice(0, 6)}`, zone, seats });
}

/** Cookie headers for a staff (member), an admin and an owner (superuser) session. */
export async function roleHeaders() {
  return {
    staff: cookieHeader((await buildMemberSession('member')).token),
    admin: cookieHeader((await buildMemberSession('admin')).token),
    owner: cookieHeader((await buildMemberSession('owner')).token),
  };
}

export const inDays = (days: number) => new Date(Date.now() + days * 86_400_000);

/**
 * A spec's server (over `config`), started before its tests and closed after them, with staff, admin and owner
 * session headers; `clean` empties the events and shows before each test.
 */
export function specServer(config: Partial<Config> = {}, options: { clean?: boolean } = {}) {
  const spec = {} as { server: TestServer; as: Awaited<ReturnType<typeof roleHeaders>> };
  before(async () => {
    spec.server = await startTestServer({ config });
    spec.as = await roleHeaders();
  });
  after(() => spec.server.close());
  if (options.clean) {
    beforeEach(async () => {
      await spec.server.db.knex('show_events').delete();
      await spec.server.db.knex('shows').delete();
    });
  }
  return spec;
}
