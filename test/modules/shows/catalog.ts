import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { buildApiKey, buildMemberSession, permissionMap } from '../../helpers/factories.ts';
import { asSuperuser, cookieHeader, startTestServer, type TestServer } from '../../helpers/server.ts';
import { FulfillmentItem, type FulfillmentKind } from '../../../server/modules/fulfillment/models.ts';
import { Offer } from '../../../server/modules/offers/models.ts';
import { Show } from '../../../server/modules/shows/models.ts';

/** Callers and rows for the catalog specs (shows, offers, fulfillment, tables, commercial setup). */

export const MISSING_ID = '00000000-0000-4000-8000-000000000000';

/** A member (staff), an admin session and the superuser token, as request headers. */
export async function catalogCallers() {
  const staff = await buildMemberSession('member');
  const admin = await buildMemberSession('admin');
  return { anonymous: {}, staff: cookieHeader(staff.token), admin: cookieHeader(admin.token), superuser: asSuperuser };
}

export type CatalogCallers = Awaited<ReturnType<typeof catalogCallers>>;

/** Requests as one caller: `as(headers).get('/api/shows')`. */
export function requestsAs(server: TestServer, headers: Record<string, string>) {
  return {
    get: (path: string) => server.request('GET', path, { headers }),
    post: (path: string, body?: unknown) => server.request('POST', path, { headers, body }),
    put: (path: string, body: unknown) => server.request('PUT', path, { headers, body }),
    patch: (path: string, body: unknown) => server.request('PATCH', path, { headers, body }),
    delete: (path: string) => server.request('DELETE', path, { headers }),
  };
}

/**
 * A spec's server and callers, started in `before` and closed in `after` of the enclosing describe; read them
 * inside tests (`spec.server`, `spec.callers`, `spec.as(spec.callers.admin)`).
 */
export function catalogSpec(options: Parameters<typeof startTestServer>[0] = {}) {
  const spec = {
    server: undefined as unknown as TestServer,
    callers: undefined as unknown as CatalogCallers,
    as: (headers: Record<string, string>) => requestsAs(spec.server, headers),
  };
  before(async () => {
    spec.server = await startTestServer(options);
    spec.callers = await catalogCallers();
  });
  after(() => spec.server.close());
  return spec;
}

/** Headers of an API key holding exactly these permissions. */
export async function apiKeyWith(...permissions: string[]) {
  const { key } = await buildApiKey({ permissions: permissionMap(...permissions) });
  return { 'x-api-key': key };
}

const suffix = () => randomUUID().replace(/-/g, '').slice(0, 6).toUpperCase();

export async function buildShow(overrides: Partial<Pick<Show, 'code' | 'slug' | 'status' | 'canonical' | 'title' | 'summary' | 'sortOrder' | 'durationMinutes'>> = {}) {
  const code = overrides.code ?? `S${suffix()}`;
  return Show.query().insertAndFetch({
    code,
    slug: overrides.slug ?? `show-${code.toLowerCase()}`,
    status: overrides.status ?? 'DRAFT',
    canonical: overrides.canonical ?? false,
    title: overrides.title ?? { en: `Show ${code}` },
    summary: overrides.summary ?? {},
    description: {},
    durationMinutes: overrides.durationMinutes ?? 90,
    imageBlobIds: [],
    sortOrder: overrides.sortOrder ?? 0,
  });
}

export async function buildFulfillmentItem(overrides: Partial<{ code: string; kind: FulfillmentKind; name: Record<string, string>; dietaryTags: string[] }> = {}) {
  const code = overrides.code ?? `F${suffix()}`;
  return FulfillmentItem.query().insertAndFetch({
    code,
    kind: overrides.kind ?? 'MEAL',
    name: overrides.name ?? { en: `Item ${code}` },
    dietaryTags: overrides.dietaryTags ?? [],
  });
}

export async function buildOffer(overrides: Partial<Pick<Offer, 'code' | 'showId' | 'status' | 'bookingPath' | 'sortOrder' | 'minGuests' | 'maxGuests'>> = {}) {
  return Offer.query().insertAndFetch({
    code: overrides.code ?? `O${suffix()}`,
    showId: overrides.showId ?? null,
    name: { en: 'Dinner and show' },
    description: {},
    bookingPath: overrides.bookingPath ?? 'DINNER_SHOW',
    experienceType: 'STANDARD',
    pricePerGuestVnd: 1_500_000,
    minGuests: overrides.minGuests ?? 1,
    maxGuests: overrides.maxGuests ?? 10,
    status: overrides.status ?? 'ACTIVE',
    sortOrder: overrides.sortOrder ?? 0,
  });
}

/** A stored blob row (the object itself is not needed to name it as a show image). */
export async function buildBlobRow(knex: Knex, overrides: { objectDeletedAt?: Date } = {}) {
  const [row] = await knex('storage_blobs')
    .insert({
      key: `show-image/test/${randomUUID()}.png`,
      content_type: 'image/png',
      byte_size: 10,
      sha256: 'a'.repeat(64),
      purpose: 'show-image',
      object_deleted_at: overrides.objectDeletedAt ?? null,
    })
    .returning('id');
  return row.id as string;
}
