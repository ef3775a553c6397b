import { randomBytes, randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { atLocal, eventSlug } from '../../../server/catalog/venueTime.ts';

/**
 * Catalog rows for the public catalog's specs, written straight into the tables (the staff modules that
 * create them through the API are built elsewhere). Every helper returns the row as stored.
 */

export const ZONE = 'Asia/Ho_Chi_Minh';

export interface ShowFixture {
  id: string;
  slug: string;
  code: string;
}

let counter = 0;
const next = () => ++counter;

export async function insertShow(
  knex: Knex,
  overrides: Partial<{
    slug: string;
    code: string;
    status: 'DRAFT' | 'PUBLISHED' | 'ARCHIVED';
    title: Record<string, string>;
    summary: Record<string, string>;
    description: Record<string, string>;
    durationMinutes: number;
    sortOrder: number;
    imageBlobIds: string[];
  }> = {},
): Promise<ShowFixture> {
  const n = next();
  const [row] = await knex('shows')
    .insert({
      slug: overrides.slug ?? `show-${n}`,
      code: overrides.code ?? `SH${n}`,
      status: overrides.status ?? 'PUBLISHED',
      title: JSON.stringify(overrides.title ?? { en: `Show ${n}`, vi: `Chương trình ${n}` }),
      summary: JSON.stringify(overrides.summary ?? { en: `Summary ${n}` }),
      description: JSON.stringify(overrides.description ?? { en: `Description ${n}` }),
      duration_minutes: overrides.durationMinutes ?? 90,
      sort_order: overrides.sortOrder ?? 0,
      image_blob_ids: JSON.stringify(overrides.imageBlobIds ?? []),
      published_at: (overrides.status ?? 'PUBLISHED') === 'DRAFT' ? null : new Date(),
    })
    .returning(['id', 'slug', 'code']);
  return row;
}

export async function insertEvent(
  knex: Knex,
  show: ShowFixture,
  startsAt: Date,
  overrides: Partial<{
    capacity: number;
    salesOpen: boolean;
    status: 'SCHEDULED' | 'CANCELLED' | 'COMPLETED';
    staffNotes: string | null;
    cancellationReason: string | null;
    doorsMinutes: number | null;
    slug: string | null;
  }> = {},
): Promise<{ id: string; slug: string }> {
  const status = overrides.status ?? 'SCHEDULED';
  const doors = overrides.doorsMinutes === undefined ? 60 : overrides.doorsMinutes;
  const [row] = await knex('show_events')
    .insert({
      show_id: show.id,
      slug: overrides.slug === undefined ? eventSlug(show.slug, startsAt, ZONE) : overrides.slug,
      starts_at: startsAt,
      doors_at: doors === null ? null : new Date(startsAt.getTime() - doors * 60_000),
      capacity: overrides.capacity ?? 120,
      sales_open: overrides.salesOpen ?? true,
      status,
      staff_notes: overrides.staffNotes ?? null,
      cancellation_reason: overrides.cancellationReason ?? null,
      cancelled_at: status === 'CANCELLED' ? new Date() : null,
      completed_at: status === 'COMPLETED' ? new Date() : null,
    })
    .returning(['id', 'slug']);
  return row;
}

export async function insertItem(knex: Knex, overrides: Partial<{ code: string; name: Record<string, string>; kind: string; dietaryTags: string[] }> = {}) {
  const n = next();
  const [row] = await knex('fulfillment_items')
    .insert({
      code: overrides.code ?? `ITEM-${n}`,
      name: JSON.stringify(overrides.name ?? { en: `Item ${n}` }),
      kind: overrides.kind ?? 'MEAL',
      dietary_tags: JSON.stringify(overrides.dietaryTags ?? []),
    })
    .returning(['id', 'code']);
  return row as { id: string; code: string };
}

export async function insertOffer(
  knex: Knex,
  show: ShowFixture | null,
  overrides: Partial<{
    code: string;
    name: Record<string, string>;
    description: Record<string, string>;
    bookingPath: string;
    experienceType: string;
    pricePerGuestVnd: number;
    minGuests: number;
    maxGuests: number;
    salesStartsAt: Date | null;
    salesEndsAt: Date | null;
    status: 'ACTIVE' | 'INACTIVE';
    sortOrder: number;
    items: Array<{ id: string; quantity?: number }>;
  }> = {},
): Promise<{ id: string; code: string }> {
  const n = next();
  const [row] = await knex('offers')
    .insert({
      code: overrides.code ?? `OFFER-${n}`,
      show_id: show?.id ?? null,
      name: JSON.stringify(overrides.name ?? { en: `Offer ${n}` }),
      description: JSON.stringify(overrides.description ?? { en: `Offer ${n} description` }),
      booking_path: overrides.bookingPath ?? 'DINNER_SHOW',
      experience_type: overrides.experienceType ?? 'STANDARD',
      price_per_guest_vnd: overrides.pricePerGuestVnd ?? 1_000_000,
      min_guests: overrides.minGuests ?? 1,
      max_guests: overrides.maxGuests ?? 10,
      sales_starts_at: overrides.salesStartsAt ?? null,
      sales_ends_at: overrides.salesEndsAt ?? null,
      status: overrides.status ?? 'ACTIVE',
      sort_order: overrides.sortOrder ?? 0,
    })
    .returning(['id', 'code']);
  for (const item of overrides.items ?? []) {
    await knex('offer_items').insert({ offer_id: row.id, fulfillment_item_id: item.id, quantity_per_guest: item.quantity ?? 1 });
  }
  return row;
}

/** A storage row (no object is needed: the catalog only names the key). */
export async function insertBlob(knex: Knex, purpose: string, overrides: Partial<{ deleted: boolean }> = {}) {
  const id = randomUUID();
  // As uploads make them: a fresh uuid, not the row's id.
  const key = `${purpose}/2026/11/${randomUUID()}.png`;
  await knex('storage_blobs').insert({
    id,
    key,
    content_type: 'image/png',
    byte_size: 10,
    sha256: randomBytes(32).toString('hex'),
    purpose,
    object_deleted_at: overrides.deleted ? new Date() : null,
  });
  return { id, key };
}

/** The instant of local `date` `time` in the venue's zone. */
export const local = (date: string, time: string) => atLocal(date, time, ZONE);

/** Keys only staff views have (the public presenters name events by slug and state, offers by code). */
export const STAFF_ONLY_KEYS = new Set([
  'id',
  'showId',
  'eventId',
  'capacity',
  'seatsTaken',
  'staffNotes',
  'cancellationReason',
  'cancelledAt',
  'completedAt',
  'salesOpen',
  'status',
  'canonical',
  'sortOrder',
  'salesStartsAt',
  'salesEndsAt',
  'imageBlobIds',
  'untranslated',
  'publishedAt',
  'archivedAt',
  'createdAt',
  'updatedAt',
  'fulfillmentItemId',
]);

/** Every key of a JSON value, at any depth. */
export function keysOf(value: unknown, found = new Set<string>()): Set<string> {
  if (Array.isArray(value)) for (const item of value) keysOf(item, found);
  else if (value && typeof value === 'object') {
    for (const [key, inner] of Object.entries(value)) {
      found.add(key);
      keysOf(inner, found);
    }
  }
  return found;
}
