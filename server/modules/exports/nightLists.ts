import type { Knex } from 'knex';
import { DateTime } from 'luxon';
import { pickLocale, type LocalizedText } from '../../domain/localized.ts';
import { NotFound } from '../../platform/http/problem.ts';
import type { TabularColumn, TabularSheet } from '../../platform/tabular.ts';
import { PAID_STATUSES } from '../payments/index.ts';
import type { Labels, ListLocale } from './labels.ts';

/**
 * The night's lists for one performance (issue 36 §2): the door list (who is coming, how many, what they booked,
 * what is still to pay, who is in) and the kitchen list (what to prepare per table and in all, and every guest's
 * dietary needs), grouped by table or by arrival. The parties are the event's CONFIRMED and CHECKED_IN
 * reservations — the same population as the logistics workload (a HELD reservation is an unpaid claim on seats,
 * not a guest the floor expects). A performance's parties are bounded by its capacity, so the list is read whole.
 *
 * Names and phones are the ones the booking was made with (what a guest says at the door); the dietary needs are
 * the party's guest profiles' (soft-deleted ones left out) and the guest's note.
 */

export type Grouping = 'table' | 'arrival';

export interface PartyProfile {
  name: string;
  preferences: string[];
  note: string | null;
}

export interface PartyItem {
  code: string;
  name: string;
  kind: string;
  dietaryTags: string[];
  quantity: number;
}

export interface Party {
  reference: string;
  status: 'CONFIRMED' | 'CHECKED_IN';
  guests: number;
  name: string;
  phone: string | null;
  offerCode: string;
  offerName: string;
  tableCode: string | null;
  totalVnd: number;
  paidVnd: number;
  dueVnd: number;
  checkedInAt: Date | null;
  guestNote: string | null;
  staffNotes: string | null;
  profiles: PartyProfile[];
  items: PartyItem[];
}

export interface PartyGroup {
  label: string;
  parties: Party[];
}

export interface NightList {
  event: { slug: string | null; startsAt: Date; doorsAt: Date | null; showTitle: string };
  locale: ListLocale;
  labels: Labels;
  zone: string;
  groups: PartyGroup[];
  totals: { parties: number; guests: number; partiesIn: number; guestsIn: number; paidVnd: number; dueVnd: number };
  /** Σ over the parties of each offer item × guests, by item code. */
  toPrepare: PartyItem[];
  /** Guests per dietary preference, over the profiles. */
  dietaryNeeds: Array<{ preference: string; guests: number }>;
}

/** Minutes in an arrival slot of the arrival grouping. */
const ARRIVAL_SLOT_MINUTES = 15;

/** The performance's lists' data; 404 when there is no such event. */
export async function nightList(knex: Knex, eventId: string, options: { grouping: Grouping; locale: ListLocale; labels: Labels; zone: string; defaultLocale: string }): Promise<NightList> {
  const localized = (value: LocalizedText | null) => pickLocale(value, options.locale, options.defaultLocale);
  const event = await knex('show_events as e').join('shows as s', 's.id', 'e.show_id').where('e.id', eventId).first('e.slug', 'e.starts_at', 'e.doors_at', 's.title');
  if (!event) throw NotFound('No such show event.');

  const rows: Array<Record<string, any>> = await knex('reservations as r')
    .join('offers as o', 'o.id', 'r.offer_id')
    .leftJoin('venue_tables as t', 't.id', 'r.table_id')
    .where('r.show_event_id', eventId)
    .whereIn('r.status', ['CONFIRMED', 'CHECKED_IN'])
    .orderByRaw('t.sort_order nulls last, t.code nulls last, r.contact_name, r.reference')
    .select(
      'r.id',
      'r.reference',
      'r.status',
      'r.guest_count',
      'r.total_vnd',
      'r.checked_in_at',
      'r.customer_note',
      'r.staff_notes',
      'r.contact_honorific',
      'r.contact_name',
      'r.contact_phone',
      'r.offer_id',
      'o.code as offer_code',
      'o.name as offer_name',
      't.code as table_code',
      't.zone as table_zone',
      't.seats as table_seats',
      knex('payments as p')
        .whereRaw('p.reservation_id = r.id')
        .whereIn('p.status', [...PAID_STATUSES])
        .select(knex.raw('coalesce(sum(p.amount_vnd - p.refunded_vnd), 0)'))
        .as('paid_vnd'),
    );
  const ids = rows.map((row) => row.id as string);
  const offerIds = [...new Set(rows.map((row) => row.offer_id as string))];
  const [profiles, items] = await Promise.all([
    ids.length
      ? knex('guest_profiles').whereIn('reservation_id', ids).where('is_deleted', false).orderBy([{ column: 'created_at' }, { column: 'id' }]).select('reservation_id', 'display_name', 'dietary_preferences', 'dietary_note')
      : [],
    offerIds.length
      ? knex('offer_items as oi')
          .join('fulfillment_items as f', 'f.id', 'oi.fulfillment_item_id')
          .whereIn('oi.offer_id', offerIds)
          .orderBy('f.code')
          .select('oi.offer_id', 'oi.quantity_per_guest', 'f.code', 'f.name', 'f.kind', 'f.dietary_tags')
      : [],
  ]);
  const profilesOf = new Map<string, PartyProfile[]>();
  for (const profile of profiles as Array<Record<string, any>>) {
    const list = profilesOf.get(profile.reservation_id) ?? [];
    list.push({ name: profile.display_name, preferences: profile.dietary_preferences ?? [], note: profile.dietary_note });
    profilesOf.set(profile.reservation_id, list);
  }
  const itemsOf = new Map<string, Array<Record<string, any>>>();
  for (const item of items as Array<Record<string, any>>) itemsOf.set(item.offer_id, [...(itemsOf.get(item.offer_id) ?? []), item]);

  const tableLabel = new Map<string, string>();
  const parties: Party[] = rows.map((row) => {
    const total = Number(row.total_vnd);
    const paid = Number(row.paid_vnd);
    if (row.table_code) tableLabel.set(row.table_code, options.labels.tableGroup(row.table_code, options.labels.zones[row.table_zone] ?? row.table_zone, row.table_seats));
    return {
      reference: row.reference,
      status: row.status,
      guests: row.guest_count,
      name: [row.contact_honorific, row.contact_name].filter(Boolean).join(' '),
      phone: row.contact_phone,
      offerCode: row.offer_code,
      offerName: localized(row.offer_name),
      tableCode: row.table_code,
      totalVnd: total,
      paidVnd: paid,
      dueVnd: Math.max(0, total - paid),
      checkedInAt: row.status === 'CHECKED_IN' && row.checked_in_at ? new Date(row.checked_in_at) : null,
      guestNote: row.customer_note,
      staffNotes: row.staff_notes,
      profiles: profilesOf.get(row.id) ?? [],
      items: (itemsOf.get(row.offer_id) ?? []).map((item) => ({
        code: item.code,
        name: localized(item.name),
        kind: item.kind,
        dietaryTags: item.dietary_tags ?? [],
        quantity: item.quantity_per_guest * row.guest_count,
      })),
    };
  });

  const toPrepare = new Map<string, PartyItem>();
  const needs = new Map<string, number>();
  for (const party of parties) {
    for (const item of party.items) {
      const sum = toPrepare.get(item.code);
      if (sum) sum.quantity += item.quantity;
      else toPrepare.set(item.code, { ...item });
    }
    for (const profile of party.profiles) for (const preference of profile.preferences) needs.set(preference, (needs.get(preference) ?? 0) + 1);
  }
  const inside = parties.filter((party) => party.status === 'CHECKED_IN');
  return {
    event: { slug: event.slug, startsAt: new Date(event.starts_at), doorsAt: event.doors_at ? new Date(event.doors_at) : null, showTitle: localized(event.title) },
    locale: options.locale,
    labels: options.labels,
    zone: options.zone,
    groups: options.grouping === 'table' ? byTable(parties, tableLabel, options.labels) : byArrival(parties, options.labels, options.zone),
    totals: {
      parties: parties.length,
      guests: parties.reduce((sum, party) => sum + party.guests, 0),
      partiesIn: inside.length,
      guestsIn: inside.reduce((sum, party) => sum + party.guests, 0),
      paidVnd: parties.reduce((sum, party) => sum + party.paidVnd, 0),
      dueVnd: parties.reduce((sum, party) => sum + party.dueVnd, 0),
    },
    toPrepare: [...toPrepare.values()].sort((a, b) => a.code.localeCompare(b.code)),
    dietaryNeeds: [...needs.entries()].map(([preference, guests]) => ({ preference, guests })).sort((a, b) => b.guests - a.guests || a.preference.localeCompare(b.preference)),
  };
}

/** Tables in the floor plan's order (the query's), then the parties without a table. */
function byTable(parties: Party[], tableLabel: Map<string, string>, labels: Labels): PartyGroup[] {
  const groups = new Map<string, PartyGroup>();
  for (const party of parties) {
    const key = party.tableCode ?? '';
    const group = groups.get(key) ?? { label: party.tableCode ? tableLabel.get(party.tableCode)! : labels.noTable, parties: [] };
    group.parties.push(party);
    groups.set(key, group);
  }
  return [...groups.values()];
}

/**
 * Who is still to come first (by name: the door looks them up), then who came, in 15-minute slots of their
 * check-in time (the venue's clock), earliest first.
 */
function byArrival(parties: Party[], labels: Labels, zone: string): PartyGroup[] {
  const waiting = parties.filter((party) => !party.checkedInAt).sort((a, b) => a.name.localeCompare(b.name, 'vi') || a.reference.localeCompare(b.reference));
  const came = parties.filter((party) => party.checkedInAt).sort((a, b) => a.checkedInAt!.getTime() - b.checkedInAt!.getTime() || a.reference.localeCompare(b.reference));
  const groups: PartyGroup[] = waiting.length ? [{ label: labels.notArrived, parties: waiting }] : [];
  const slots = new Map<string, PartyGroup>();
  for (const party of came) {
    const local = DateTime.fromJSDate(party.checkedInAt!, { zone });
    const start = local.set({ minute: Math.floor(local.minute / ARRIVAL_SLOT_MINUTES) * ARRIVAL_SLOT_MINUTES, second: 0, millisecond: 0 });
    const key = start.toISO()!;
    let slot = slots.get(key);
    if (!slot) {
      slot = { label: labels.arrived(start.toFormat('HH:mm'), start.plus({ minutes: ARRIVAL_SLOT_MINUTES }).toFormat('HH:mm')), parties: [] };
      slots.set(key, slot);
      groups.push(slot);
    }
    slot.parties.push(party);
  }
  return groups;
}

// ---- what each list says about a party (the PDF and the XLSX share these) ------------------------------------------

/** `Lan: Vegetarian, Nut allergy (no peanuts)`, one profile after another. */
export function dietaryText(party: Party, labels: Labels): string {
  return party.profiles
    .filter((profile) => profile.preferences.length || profile.note)
    .map((profile) => {
      const needs = profile.preferences.map((preference) => labels.preferences[preference] ?? preference).join(', ');
      const note = profile.note ? ` (${profile.note})` : '';
      return `${profile.name}: ${needs || '—'}${note}`;
    })
    .join('; ');
}

/** The guest's note and the staff's notes. */
export const notesText = (party: Party) => [party.guestNote, party.staffNotes].filter(Boolean).join(' — ');

/** `2 × Bò lúc lắc` per item of the party's offer. */
export const itemsText = (party: Party) => party.items.map((item) => `${item.quantity} × ${item.name}`).join(', ');

/** An instant at the venue's clock (`HH:mm` unless told), weekday names in the list's language. */
export const localTime = (instant: Date, zone: string, format = 'HH:mm', locale = 'en') => DateTime.fromJSDate(instant, { zone }).setLocale(locale).toFormat(format);

// ---- the same lists as XLSX worksheets -------------------------------------------------------------------------------

type GroupedParty = Party & { group: string };

async function* once<T>(rows: readonly T[]): AsyncGenerator<readonly T[]> {
  yield rows;
}

const grouped = (list: NightList): GroupedParty[] => list.groups.flatMap((group) => group.parties.map((party) => ({ ...party, group: group.label })));

export function doorListSheets(list: NightList): TabularSheet<GroupedParty>[] {
  const l = list.labels;
  const columns: TabularColumn<GroupedParty>[] = [
    { header: l.group, type: 'text', value: (party) => party.group, width: 30 },
    { header: l.table, type: 'text', value: (party) => party.tableCode, width: 8 },
    { header: l.reference, type: 'text', value: (party) => party.reference, width: 12 },
    { header: l.name, type: 'text', value: (party) => party.name },
    { header: l.phone, type: 'text', value: (party) => party.phone, width: 16 },
    { header: l.guests, type: 'integer', value: (party) => party.guests },
    { header: l.offer, type: 'text', value: (party) => party.offerName },
    { header: l.dietary, type: 'text', value: (party) => dietaryText(party, l), width: 40 },
    { header: l.notes, type: 'text', value: notesText, width: 40 },
    { header: l.total, type: 'money', value: (party) => party.totalVnd },
    { header: l.paid, type: 'money', value: (party) => party.paidVnd },
    { header: l.due, type: 'money', value: (party) => party.dueVnd },
    { header: l.status, type: 'text', value: (party) => l.statuses[party.status], width: 14 },
    { header: l.checkedIn, type: 'datetime', value: (party) => party.checkedInAt },
  ];
  return [{ name: sheetName(l.doorList), columns, rows: once(grouped(list)) }];
}

export function kitchenListSheets(list: NightList): TabularSheet<any>[] {
  const l = list.labels;
  const parties: TabularColumn<GroupedParty>[] = [
    { header: l.group, type: 'text', value: (party) => party.group, width: 30 },
    { header: l.table, type: 'text', value: (party) => party.tableCode, width: 8 },
    { header: l.reference, type: 'text', value: (party) => party.reference, width: 12 },
    { header: l.name, type: 'text', value: (party) => party.name },
    { header: l.guests, type: 'integer', value: (party) => party.guests },
    { header: l.offer, type: 'text', value: (party) => party.offerName },
    { header: l.toPrepare, type: 'text', value: itemsText, width: 40 },
    { header: l.dietary, type: 'text', value: (party) => dietaryText(party, l), width: 40 },
    { header: l.notes, type: 'text', value: notesText, width: 40 },
  ];
  const items: TabularColumn<PartyItem>[] = [
    { header: l.itemCode, type: 'text', value: (item) => item.code, width: 14 },
    { header: l.item, type: 'text', value: (item) => item.name, width: 30 },
    { header: l.kind, type: 'text', value: (item) => l.kinds[item.kind] ?? item.kind, width: 14 },
    { header: l.quantity, type: 'integer', value: (item) => item.quantity },
    { header: l.dietaryTags, type: 'text', value: (item) => item.dietaryTags.join(', ') },
  ];
  const needs: TabularColumn<{ preference: string; guests: number }>[] = [
    { header: l.dietaryNeeds, type: 'text', value: (need) => l.preferences[need.preference] ?? need.preference, width: 30 },
    { header: l.guests, type: 'integer', value: (need) => need.guests },
  ];
  return [
    { name: sheetName(l.kitchenList), columns: parties, rows: once(grouped(list)) },
    { name: sheetName(l.toPrepare), columns: items, rows: once(list.toPrepare) },
    { name: sheetName(l.dietaryNeeds), columns: needs, rows: once(list.dietaryNeeds) },
  ];
}

/** A worksheet name as Excel takes it: at most 31 characters, none of `[]:*?/\`. */
const sheetName = (name: string) => name.replace(/[[\]:*?/\\]/g, ' ').slice(0, 31);
