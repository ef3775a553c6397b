import { DateTime } from 'luxon';

/**
 * Calendar arithmetic in the venue's time zone (VENUE_TIMEZONE). Stored times are instants (`timestamptz`);
 * a "date" a guest or operator names is a local day, so 23:30 local belongs to that day whatever UTC says.
 */

/** `YYYY-MM-DD` → the instant local midnight begins in `zone`. */
export function startOfLocalDay(date: string, zone: string): Date {
  const day = DateTime.fromISO(date, { zone });
  if (!day.isValid) throw new RangeError(`not a calendar date: ${date}`);
  return day.startOf('day').toJSDate();
}

/** `from`..`to` inclusive local dates → the half-open instant range [start of `from`, start of the day after `to`). */
export function localDateRange(from: string, to: string, zone: string): { start: Date; end: Date } {
  const start = DateTime.fromISO(from, { zone }).startOf('day');
  const end = DateTime.fromISO(to, { zone }).startOf('day').plus({ days: 1 });
  if (!start.isValid || !end.isValid) throw new RangeError(`not a calendar date: ${from}..${to}`);
  return { start: start.toJSDate(), end: end.toJSDate() };
}

/** Local `YYYY-MM-DD` and `HH:mm` of an instant in `zone`. */
export function toLocal(instant: Date, zone: string): { date: string; time: string; weekday: number } {
  const local = DateTime.fromJSDate(instant, { zone });
  return { date: local.toISODate()!, time: local.toFormat('HH:mm'), weekday: local.weekday };
}

/** The instant of local `date` at local `time` (`HH:mm`) in `zone` (a time skipped by a DST change moves forward). */
export function atLocal(date: string, time: string, zone: string): Date {
  const local = DateTime.fromISO(`${date}T${time}`, { zone });
  if (!local.isValid) throw new RangeError(`not a local date and time: ${date} ${time}`);
  return local.toJSDate();
}

/** Today's local date in `zone` at `now`. */
export function localToday(zone: string, now: Date = new Date()): string {
  return DateTime.fromJSDate(now, { zone }).toISODate()!;
}

/** `date` plus `days` (calendar days, local). */
export function addDays(date: string, days: number): string {
  return DateTime.fromISO(date, { zone: 'UTC' }).plus({ days }).toISODate()!;
}

/** Every local date from `from` to `to` inclusive whose ISO weekday (1 = Monday … 7 = Sunday) is in `weekdays`. */
export function datesOnWeekdays(from: string, to: string, weekdays: readonly number[]): string[] {
  const dates: string[] = [];
  for (let day = DateTime.fromISO(from, { zone: 'UTC' }), last = DateTime.fromISO(to, { zone: 'UTC' }); day <= last; day = day.plus({ days: 1 })) {
    if (weekdays.includes(day.weekday)) dates.push(day.toISODate()!);
  }
  return dates;
}

/** The canonical event slug: `<show slug>-<yyyy-mm-dd>-<hhmm>`, local to `zone`. */
export function eventSlug(showSlug: string, startsAt: Date, zone: string): string {
  const local = DateTime.fromJSDate(startsAt, { zone });
  return `${showSlug}-${local.toFormat('yyyy-LL-dd')}-${local.toFormat('HHmm')}`;
}
