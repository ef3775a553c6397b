import { DateTime } from 'luxon';
import { fold, hasAny, languageOf } from './text.ts';

/** The days a guest asks about, as venue-local dates (`YYYY-MM-DD`, both ends included). */
export interface DayRange {
  from: string;
  to: string;
  /** One day asked about (`tomorrow`, `Saturday`, `5/12`), not a span (`this weekend`, `next week`). */
  single: boolean;
}

const WEEKDAYS_EN: Record<string, number> = {
  monday: 1, mon: 1, tuesday: 2, tue: 2, tues: 2, wednesday: 3, wed: 3, thursday: 4, thu: 4, thur: 4, thurs: 4, friday: 5, fri: 5, saturday: 6, sat: 6, sunday: 7, sun: 7,
};

// Folded Vietnamese: "thứ hai" … "thứ bảy", "thứ 2" … "thứ 7", "chủ nhật" / "CN".
const WEEKDAYS_VI: Array<[string, number]> = [
  ['thu hai', 1], ['thu 2', 1], ['t2', 1], ['thu ba', 2], ['thu 3', 2], ['t3', 2], ['thu tu', 3], ['thu 4', 3], ['t4', 3],
  ['thu nam', 4], ['thu 5', 4], ['t5', 4], ['thu sau', 5], ['thu 6', 5], ['t6', 5], ['thu bay', 6], ['thu 7', 6], ['t7', 6],
  ['chu nhat', 7], ['cn', 7],
];

const MONTHS_EN: Record<string, number> = {
  january: 1, jan: 1, february: 2, feb: 2, march: 3, mar: 3, april: 4, apr: 4, may: 5, june: 6, jun: 6, july: 7, jul: 7,
  august: 8, aug: 8, september: 9, sep: 9, sept: 9, october: 10, oct: 10, november: 11, nov: 11, december: 12, dec: 12,
};

/**
 * Holidays of the solar calendar, by name (folded; the most specific first): the next one on or after today.
 * Tết and other lunar dates move from year to year and are left to an explicit date.
 */
const HOLIDAYS: Array<[string[], number, number]> = [
  [['christmas eve', 'xmas eve', 'dem giang sinh', 'dem noel', 'dem chua giang sinh'], 12, 24],
  [['christmas', 'xmas', 'giang sinh', 'noel'], 12, 25],
  [['new years eve', 'new year eve', 'nye'], 12, 31],
  [['new years day', 'tet duong lich'], 1, 1],
  [['valentines day', 'valentines', 'valentine', 'le tinh nhan'], 2, 14],
  [['reunification day', 'ngay giai phong', 'ngay thong nhat'], 4, 30],
  [['labour day', 'labor day', 'quoc te lao dong'], 5, 1],
  [['national day', 'quoc khanh'], 9, 2],
];

/** The days named in `text` (English or Vietnamese), relative to `now` in `zone`; undefined when none is. */
export function parseDays(text: string, now: Date, zone: string): DayRange | undefined {
  const folded = fold(text);
  const today = DateTime.fromJSDate(now, { zone }).startOf('day');
  const one = (day: DateTime): DayRange => ({ from: day.toISODate()!, to: day.toISODate()!, single: true });
  const span = (from: DateTime, to: DateTime): DayRange => ({ from: from.toISODate()!, to: to.toISODate()!, single: false });

  const explicit = explicitDate(text, folded, today);
  // "From the 29th onwards", "từ 29/11 trở đi": a fortnight from that day.
  if (explicit && hasAny(folded, ['onwards', 'onward', 'and after', 'or later', 'tro di', 'tro ve sau', 've sau'])) return span(explicit, explicit.plus({ days: 13 }));
  if (explicit) return one(explicit);
  const holiday = HOLIDAYS.find(([phrases]) => hasAny(folded, phrases));
  if (holiday) return one(valid(today, undefined, holiday[1], holiday[2])!);

  if (hasAny(folded, ['day after tomorrow', 'ngay kia', 'ngay mot'])) return one(today.plus({ days: 2 }));
  if (hasAny(folded, ['tomorrow', 'tmr', 'tmrw', 'ngay mai', 'toi mai', 'mai', 'sang mai', 'chieu mai'])) return one(today.plus({ days: 1 }));
  if (hasAny(folded, ['today', 'tonight', 'this evening', 'hom nay', 'toi nay', 'chieu nay', 'dem nay', 'bua nay'])) return one(today);

  const next = hasAny(folded, ['next', 'tuan sau', 'tuan toi']);
  if (hasAny(folded, ['weekend', 'cuoi tuan'])) {
    // The coming Saturday and Sunday (today when it is one of them); "next weekend" skips a week.
    let saturday = today.weekday === 7 ? today.minus({ days: 1 }) : today.plus({ days: (6 - today.weekday + 7) % 7 });
    // "Next weekend" skips a week; "the next show after this weekend" does not ("next" is the show's).
    if (next && !hasAny(folded, ['this weekend', 'cuoi tuan nay'])) saturday = saturday.plus({ weeks: 1 });
    // "After this weekend" / "sau cuối tuần": the fortnight from the Monday after it.
    if (hasAny(folded, ['after this weekend', 'after the weekend', 'after weekend', 'sau cuoi tuan', 'sau cuoi tuan nay'])) {
      const monday = saturday.plus({ days: 2 });
      return span(monday, monday.plus({ days: 13 }));
    }
    return span(saturday < today ? today : saturday, saturday.plus({ days: 1 }));
  }

  const weekday = weekdayIn(folded, languageOf(text) !== 'vi');
  if (weekday !== undefined) {
    let day = today.plus({ days: (weekday - today.weekday + 7) % 7 });
    // "Next Friday" / "thứ sáu tuần sau": that day of next week (Monday to Sunday), as "next week" is.
    if (next) {
      const nextMonday = today.plus({ days: 8 - today.weekday });
      day = nextMonday.plus({ days: weekday - 1 });
    }
    return one(day);
  }
  if (hasAny(folded, ['next week', 'tuan sau', 'tuan toi'])) {
    const monday = today.plus({ days: 8 - today.weekday });
    return span(monday, monday.plus({ days: 6 }));
  }
  if (hasAny(folded, ['this week', 'tuan nay'])) return span(today, today.plus({ days: 7 - today.weekday }));
  if (hasAny(folded, ['next month', 'thang sau', 'thang toi'])) {
    const first = today.plus({ months: 1 }).startOf('month');
    return span(first, first.endOf('month').startOf('day'));
  }
  if (hasAny(folded, ['this month', 'thang nay'])) return span(today, today.endOf('month').startOf('day'));
  return undefined;
}

function weekdayIn(folded: string, shortForms: boolean): number | undefined {
  for (const [phrase, day] of WEEKDAYS_VI) if (hasAny(folded, [phrase])) return day;
  for (const [word, day] of Object.entries(WEEKDAYS_EN)) {
    // Short forms only as whole words ("sat" yes, "satisfied" no), and not in Vietnamese, where "món" (a dish)
    // is "mon" and "thứ" is "thu" (handled above).
    if (word.length <= 4 && (!shortForms || word === 'thu')) continue;
    if (hasAny(folded, [word, `${word}s`])) return day;
  }
  return undefined;
}

/** `2026-12-05`, `5/12` (day first, as written in Vietnam), `5/12/2026`, `Dec 5`, `5th December`, `ngày 5 tháng 12`, `the 5th`. */
function explicitDate(raw: string, folded: string, today: DateTime): DateTime | undefined {
  const iso = raw.match(/\b(20\d\d)-(\d\d)-(\d\d)\b/);
  if (iso) return valid(today, Number(iso[1]), Number(iso[2]), Number(iso[3]));

  const slash = raw.match(/\b(\d{1,2})[/.](\d{1,2})(?:[/.](\d{2,4}))?\b/);
  if (slash) {
    const year = slash[3] ? Number(slash[3].length === 2 ? `20${slash[3]}` : slash[3]) : undefined;
    const date = valid(today, year, Number(slash[2]), Number(slash[1]));
    if (date) return date;
  }

  const vi = folded.match(/ (?:ngay )?(\d{1,2}) thang (\d{1,2})(?: nam (\d{4}))? /);
  if (vi) return valid(today, vi[3] ? Number(vi[3]) : undefined, Number(vi[2]), Number(vi[1]));

  // In Vietnamese, "may" is "mấy" (how many: "thứ 7 mấy giờ") and a number after "thứ" is a weekday's.
  const monthNames = Object.keys(MONTHS_EN)
    .filter((name) => name !== 'may' || languageOf(raw) !== 'vi')
    .join('|');
  const monthFirst = folded.match(new RegExp(` (${monthNames}) (\\d{1,2})(?:st|nd|rd|th)?(?: (\\d{4}))? `));
  if (monthFirst) return valid(today, monthFirst[3] ? Number(monthFirst[3]) : undefined, MONTHS_EN[monthFirst[1]], Number(monthFirst[2]));
  const dayFirst = folded.match(new RegExp(`(?<! thu) (\\d{1,2})(?:st|nd|rd|th)? (?:of )?(${monthNames})(?: (\\d{4}))? `));
  if (dayFirst) return valid(today, dayFirst[3] ? Number(dayFirst[3]) : undefined, MONTHS_EN[dayFirst[2]], Number(dayFirst[1]));

  const ordinal = folded.match(/ (?:the |on )(\d{1,2})(?:st|nd|rd|th) /) ?? folded.match(/ ngay (\d{1,2}) /);
  if (ordinal) {
    const day = Number(ordinal[1]);
    const thisMonth = valid(today, today.year, today.month, day);
    if (thisMonth && thisMonth >= today) return thisMonth;
    const next = today.plus({ months: 1 });
    return valid(today, next.year, next.month, day);
  }
  return undefined;
}

/** A real date; without a year, the next one on or after today. */
function valid(today: DateTime, year: number | undefined, month: number, day: number): DateTime | undefined {
  if (month < 1 || month > 12 || day < 1 || day > 31) return undefined;
  let date = DateTime.fromObject({ year: year ?? today.year, month, day }, { zone: today.zone });
  if (!date.isValid) return undefined;
  if (year === undefined && date < today) date = date.plus({ years: 1 });
  return date;
}
