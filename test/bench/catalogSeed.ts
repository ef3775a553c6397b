/**
 * A demo-like venue for the catalog benchmark row (P6), written straight into the catalog tables (the bench
 * only: the real seeder goes through the API). Three published shows on a weekly pattern for the next eight
 * weeks — the canonical one Tuesday to Sunday at 19:30, one on Friday and Saturday at 21:30, one on Sunday at
 * 16:00 (72 events) — four offers per show (dinner and VIP dinner per show, show-only and private event for
 * all shows), each with fulfillment items. Every row's code or slug starts with `bench`/`BENCH`, so a run over
 * a real PostgreSQL database can remove exactly what it wrote.
 */
import type { Knex } from 'knex';
import { addDays, atLocal, datesOnWeekdays, eventSlug, localToday } from '../../server/domain/venueTime.ts';

const ZONE = process.env.VENUE_TIMEZONE || 'Asia/Ho_Chi_Minh';

/** The catalog row's read (P6): eight weeks of upcoming events (the default range), one page of up to 100. */
export const CATALOG_PATH = '/api/public/show-events?limit=100';

const SHOWS = [
  { code: 'BENCHSGC', slug: 'bench-saigon-cabaret', title: { en: 'Saigon Cabaret', vi: 'Sài Gòn Cabaret' }, weekdays: [2, 3, 4, 5, 6, 7], time: '19:30', capacity: 180 },
  { code: 'BENCHLOT', slug: 'bench-lotus-dreams', title: { en: 'Lotus Dreams', vi: 'Giấc mơ Sen' }, weekdays: [5, 6], time: '21:30', capacity: 120 },
  { code: 'BENCHACR', slug: 'bench-acrobats', title: { en: 'Bamboo Acrobats', vi: 'Xiếc tre' }, weekdays: [7], time: '16:00', capacity: 90 },
];

const ITEMS = [
  { code: 'BENCH-SET-MENU', name: { en: 'Four-course set menu', vi: 'Thực đơn bốn món' }, kind: 'MEAL', dietary_tags: ['vegetarian-option'] },
  { code: 'BENCH-VIP-MENU', name: { en: 'Chef’s tasting menu', vi: 'Thực đơn nếm thử' }, kind: 'MEAL', dietary_tags: ['pescatarian-option'] },
  { code: 'BENCH-WELCOME', name: { en: 'Welcome cocktail', vi: 'Cocktail chào mừng' }, kind: 'DRINK', dietary_tags: [] },
  { code: 'BENCH-WINE', name: { en: 'Glass of wine', vi: 'Ly rượu vang' }, kind: 'DRINK', dietary_tags: [] },
  { code: 'BENCH-PROGRAM', name: { en: 'Printed programme', vi: 'Tờ chương trình' }, kind: 'MERCH', dietary_tags: [] },
];

/** Removes every row this seed writes (offers before shows and items, events before shows). */
export async function removeBenchVenue(knex: Knex): Promise<void> {
  await knex('offers').where('code', 'like', 'BENCH%').delete();
  await knex('fulfillment_items').where('code', 'like', 'BENCH%').delete();
  await knex('show_events').whereIn('show_id', knex('shows').select('id').where('code', 'like', 'BENCH%')).delete();
  await knex('shows').where('code', 'like', 'BENCH%').delete();
}

/** Writes the venue (after removing an earlier run's); returns the number of events. */
export async function seedBenchVenue(knex: Knex): Promise<number> {
  await removeBenchVenue(knex);
  const from = addDays(localToday(ZONE), 1);
  const to = addDays(from, 55);
  const items = await knex('fulfillment_items')
    .insert(ITEMS.map((item) => ({ ...item, name: JSON.stringify(item.name), dietary_tags: JSON.stringify(item.dietary_tags) })))
    .returning(['id', 'code']);
  const item = (code: string) => items.find((row: { code: string }) => row.code === code)!.id as string;
  let events = 0;
  for (const [index, spec] of SHOWS.entries()) {
    const [show] = await knex('shows')
      .insert({
        code: spec.code,
        slug: spec.slug,
        status: 'PUBLISHED',
        canonical: index === 0,
        title: JSON.stringify(spec.title),
        summary: JSON.stringify({ en: `${spec.title.en}: an evening to remember.`, vi: `${spec.title.vi}: một buổi tối đáng nhớ.` }),
        description: JSON.stringify({ en: `${spec.title.en}, live on stage, ninety minutes.`, vi: `${spec.title.vi}, biểu diễn trực tiếp, chín mươi phút.` }),
        duration_minutes: 90,
        sort_order: index,
        published_at: new Date(),
      })
      .returning(['id', 'slug']);
    const rows = datesOnWeekdays(from, to, spec.weekdays).map((date) => {
      const startsAt = atLocal(date, spec.time, ZONE);
      return {
        show_id: show.id,
        slug: eventSlug(show.slug, startsAt, ZONE),
        starts_at: startsAt,
        doors_at: new Date(startsAt.getTime() - 60 * 60_000),
        capacity: spec.capacity,
        sales_open: true,
        staff_notes: 'Bench: nothing to note.',
      };
    });
    await knex('show_events').insert(rows);
    events += rows.length;
    const offers = [
      { code: `BENCH-${spec.code}-DINNER`, booking_path: 'DINNER_SHOW', experience_type: 'STANDARD', price: 1_500_000, items: [['BENCH-SET-MENU', 1], ['BENCH-WELCOME', 1], ['BENCH-PROGRAM', 1]] },
      { code: `BENCH-${spec.code}-VIP`, booking_path: 'VIP_DINNER_SHOW', experience_type: 'VIP', price: 3_200_000, items: [['BENCH-VIP-MENU', 1], ['BENCH-WINE', 2], ['BENCH-PROGRAM', 1]] },
    ] as const;
    for (const [order, offer] of offers.entries()) {
      const [row] = await knex('offers')
        .insert({
          code: offer.code,
          show_id: show.id,
          name: JSON.stringify({ en: `${offer.booking_path === 'VIP_DINNER_SHOW' ? 'VIP dinner' : 'Dinner'} and ${spec.title.en}`, vi: `Ăn tối và ${spec.title.vi}` }),
          description: JSON.stringify({ en: 'Dinner from 18:00, then the show.', vi: 'Ăn tối từ 18:00, sau đó xem show.' }),
          booking_path: offer.booking_path,
          experience_type: offer.experience_type,
          price_per_guest_vnd: offer.price,
          min_guests: 1,
          max_guests: 10,
          sort_order: order,
        })
        .returning('id');
      await knex('offer_items').insert(offer.items.map(([code, quantity]) => ({ offer_id: row.id, fulfillment_item_id: item(code), quantity_per_guest: quantity })));
    }
  }
  const shared = [
    { code: 'BENCH-SHOW-ONLY', booking_path: 'SHOW_ONLY', experience_type: 'STANDARD', price: 900_000, min: 1, max: 10, items: [['BENCH-WELCOME', 1]] },
    { code: 'BENCH-PRIVATE', booking_path: 'PRIVATE_EVENT', experience_type: 'PRIVATE', price: 2_500_000, min: 20, max: 120, items: [['BENCH-SET-MENU', 1], ['BENCH-WINE', 1]] },
  ] as const;
  for (const [order, offer] of shared.entries()) {
    const [row] = await knex('offers')
      .insert({
        code: offer.code,
        show_id: null,
        name: JSON.stringify({ en: offer.booking_path === 'SHOW_ONLY' ? 'Show only' : 'Private event', vi: offer.booking_path === 'SHOW_ONLY' ? 'Chỉ xem show' : 'Sự kiện riêng' }),
        description: JSON.stringify({ en: 'Seats in the main hall.', vi: 'Ghế ở sảnh chính.' }),
        booking_path: offer.booking_path,
        experience_type: offer.experience_type,
        price_per_guest_vnd: offer.price,
        min_guests: offer.min,
        max_guests: offer.max,
        sort_order: 10 + order,
      })
      .returning('id');
    await knex('offer_items').insert(offer.items.map(([code, quantity]) => ({ offer_id: row.id, fulfillment_item_id: item(code), quantity_per_guest: quantity })));
  }
  return events;
}
