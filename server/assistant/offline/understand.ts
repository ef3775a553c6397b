import { parseDays, type DayRange } from './dates.ts';
import { fold, hasAny } from './text.ts';

/**
 * What the guest asks (offline model): the topics of one message, in English or Vietnamese, typed with or
 * without diacritics. Several topics may be asked at once ("how much is it and when is it on?"). Only the
 * wording of questions lives here; every fact the answer states comes from the tools.
 */
export type Topic =
  | 'greeting'
  | 'thanks'
  | 'whatsOn'
  | 'showDetails'
  | 'schedule'
  | 'availability'
  | 'prices'
  | 'howToBook'
  | 'policy'
  | 'contact'
  | 'privateEvents'
  | 'waitlist'
  | 'partners';

export interface Understanding {
  topics: Topic[];
  days?: DayRange;
  guests?: number;
  /** The folded question (see `fold`), for show matching and knowledge search. */
  folded: string;
  /** `showDetails` only from a generic "what is …?": about a show only when one is named. */
  weakDetails?: boolean;
}

const PHRASES: Record<Exclude<Topic, 'policy'>, string[]> = {
  greeting: ['hi', 'hello', 'hey', 'good morning', 'good evening', 'good afternoon', 'xin chao', 'chao', 'chao ban', 'alo', 'hola'],
  thanks: ['thanks', 'thank you', 'thx', 'cam on', 'cam on ban', 'tks'],
  whatsOn: [
    'whats on', 'what is on', 'what s on', 'whats playing', 'what is playing', 'what shows', 'which shows', 'what show', 'which show', 'shows do you have', 'shows are', 'any shows',
    'programme', 'program', 'lineup', 'line up', 'recommend', 'suggest', 'what can i see', 'what can we see', 'what do you have', 'what do you offer', 'performances', 'whats happening', 'what is happening', 'what events', 'which events', 'any events', 'what is there', 'whats there', 'is there anything', 'anything on', 'anything for', 'what else', 'upcoming events', 'events this', 'events on',
    'co show', 'co gi', 'show gi', 'show nao', 'chuong trinh', 'dang dien', 'bieu dien gi', 'xem gi', 'co nhung', 'gioi thieu cac', 'nen xem', 'goi y', 'su kien nao', 'vo dien', 'tiet muc',
  ],
  showDetails: [
    'tell me about', 'tell me more', 'details', 'describe', 'description', 'how long', 'duration', 'suitable', 'kids friendly', 'story', 'who performs', 'what happens', 'more info', 'worth',
    'gioi thieu', 'noi dung', 'bao lau', 'keo dai', 'thoi luong', 'ke ve', 'thong tin', 'chi tiet', 'phu hop', 'the nao', 'hay khong',
  ],
  schedule: [
    'when', 'what time', 'which time', 'times', 'time', 'dates', 'date', 'schedule', 'showtime*', 'which days', 'what days', 'which day', 'what day', 'start', 'starts', 'begin', 'doors', 'how often', 'next show', 'upcoming', 'playing', 'on tonight', 'open',
    'khi nao', 'luc nao', 'may gio', 'gio nao', 'lich', 'lich dien', 'ngay nao', 'gio dien', 'suat', 'bat dau', 'hom nao', 'bao gio', 'mo cua', 'suat dien',
  ],
  availability: [
    'available', 'availability', 'seats', 'seat', 'tickets left', 'sold out', 'space', 'room for', 'free table', 'left', 'full', 'any tickets', 'spots', 'is there room', 'table for',
    'con cho', 'con ve', 'het ve', 'het cho', 'con trong', 'cho trong', 'con ban', 'dat duoc', 'kip khong', 'du cho',
  ],
  prices: [
    'price*', 'cost*', 'how much', 'fee', 'fees', 'vnd', 'dong', 'expensive', 'cheap*', 'budget', 'rate', 'rates', 'pay', 'charge', 'per person', 'menu', 'package*', 'option', 'options', 'vip', 'tier',
    'gia', 'bao nhieu tien', 'bao nhieu', 'chi phi', 'tien', 'goi nao', 'cac goi', 'hang ve', 'loai ve', 've vip', 'phi',
  ],
  howToBook: [
    'book', 'booking', 'reserve', 'reservation', 'buy', 'purchase', 'get tickets', 'order', 'sign up', 'how do i book', 'ticket', 'tickets',
    'dat ve', 'dat cho', 'mua ve', 'dat ban', 'dat truoc', 'giu cho', 'dang ky', 'lam sao de', 'cach dat', 'mua', 'dat',
  ],
  contact: [
    'contact', 'phone', 'call', 'email', 'e mail', 'address', 'where', 'located', 'location', 'directions', 'how to get', 'get there', 'find you', 'map', 'hotline', 'zalo', 'reach you', 'opening hours',
    'lien he', 'dien thoai', 'so dien thoai', 'dia chi', 'o dau', 'cho nao', 'duong', 'ban do', 'duong di', 'goi dien', 'hotline',
  ],
  privateEvents: [
    'private', 'corporate', 'company', 'team building', 'wedding', 'birthday party', 'party', 'hire', 'rent', 'buy out', 'buyout', 'exclusive', 'whole venue', 'large group', 'big group', 'group booking', 'group of', 'celebration', 'event for',
    'su kien rieng', 'tiec', 'cong ty', 'dam cuoi', 'tiec cuoi', 'thue', 'bao tron', 'doan dong', 'nhom lon', 'tiec sinh nhat', 'rieng tu', 'to chuc',
  ],
  waitlist: ['waitlist', 'waiting list', 'wait list', 'notify me', 'danh sach cho', 'bao cho toi', 'bao minh'],
  partners: ['partner', 'partners', 'agency', 'travel agent', 'tour operator', 'affiliate', 'doi tac', 'dai ly', 'cong ty du lich'],
};

/** Policy questions: the knowledge base answers them (words that point at a policy, not the policy itself). */
const POLICY_PHRASES = [
  'cancel*', 'refund*', 'policy', 'policies', 'dress*', 'wear', 'attire', 'children', 'child', 'kids', 'kid', 'baby', 'age', 'minimum age', 'family', 'vegetarian', 'vegan', 'allerg*', 'dietary', 'diet', 'halal', 'gluten', 'food', 'seafood',
  'parking', 'park', 'car', 'motorbike', 'arrive', 'arrival', 'early', 'late', 'wheelchair', 'accessib*', 'disabled', 'stairs', 'elevator', 'lift', 'smoking', 'photo*', 'camera', 'pets', 'dog', 'deposit', 'payment', 'pay by', 'card', 'cash',
  'change my', 'reschedul*', 'terms', 'rules', 'allowed', 'bring',
  'huy', 'hoan tien', 'hoan ve', 'doi ve', 'doi ngay', 'chinh sach', 'trang phuc', 'mac gi', 'quan ao', 'tre em', 'tre nho', 'em be', 'con nho', 'do tuoi', 'tuoi', 'an chay', 'di ung', 'an kieng', 'hai san', 'mon an',
  'do xe', 'dau xe', 'gui xe', 'bai xe', 'xe may', 'o to', 'den som', 'den tre', 'den muon', 'xe lan', 'khuyet tat', 'thang may', 'cau thang', 'hut thuoc', 'chup anh', 'quay phim', 'thu cung', 'dat coc', 'thanh toan', 'the tin dung', 'tien mat', 'quy dinh', 'mang theo',
];

const WEAK_DETAILS = ['what is', 'whats', 'about', 'la gi', 'information', 'info', 'what about', 'thi sao'];

const GUEST_WORDS = 'people|persons|person|guests|guest|pax|adults|adult|of us|ppl|tickets|seats|nguoi|khach|ve|cho|suat';

/** The topics, days and party size of the guest's message. */
export function understand(text: string, now: Date, zone: string): Understanding {
  const folded = fold(text);
  const topics = new Set<Topic>();
  let weakDetails = false;
  for (const [topic, phrases] of Object.entries(PHRASES) as Array<[Topic, string[]]>) {
    if (hasAny(folded, phrases)) topics.add(topic);
  }
  if (hasAny(folded, POLICY_PHRASES)) topics.add('policy');
  // "What is …?" / "… là gì?" asks about a show only when nothing more specific is asked.
  if (topics.size === 0 || [...topics].every((topic) => topic === 'greeting' || topic === 'thanks')) {
    if (hasAny(folded, WEAK_DETAILS)) {
      topics.add('showDetails');
      weakDetails = true;
    }
  }
  const days = parseDays(text, now, zone);
  const guests = partySize(folded);
  // "Is Saturday free for 4?" names a day and a party: an availability question whatever the words.
  if (days && guests !== undefined) topics.add('availability');
  // "Do you have anything on Friday?" names a day: when and what is on then.
  if (days && !topics.has('availability') && !topics.has('prices') && !topics.has('whatsOn') && !hasAny(folded, WEAK_DETAILS)) topics.add('schedule');
  // "Group of 40" is a private-event question past the public booking sizes; decided against the offers later.
  if (topics.has('availability') && (topics.has('privateEvents') && !hasAny(folded, ['private', 'su kien rieng', 'wedding', 'dam cuoi', 'company', 'cong ty']))) topics.delete('privateEvents');
  return { topics: [...topics], days, guests, folded, weakDetails };
}

function partySize(folded: string): number | undefined {
  const match =
    folded.match(new RegExp(` (\\d{1,3}) (?:${GUEST_WORDS}) `)) ??
    folded.match(/ (?:for|party of|group of|nhom|doan) (\d{1,3}) /) ??
    folded.match(new RegExp(` (${Object.keys(NUMBER_WORDS).join('|')}) (?:${GUEST_WORDS}) `)) ??
    folded.match(new RegExp(` (?:for|party of|group of) (${Object.keys(NUMBER_WORDS).join('|')}) `));
  if (!match) return undefined;
  const value = NUMBER_WORDS[match[1]] ?? Number(match[1]);
  return Number.isInteger(value) && value > 0 && value <= 500 ? value : undefined;
}

const NUMBER_WORDS: Record<string, number> = {
  one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10, twelve: 12, twenty: 20,
  couple: 2, mot: 1, hai: 2, ba: 3, bon: 4, nam: 5, sau: 6, bay: 7, tam: 8, chin: 9, muoi: 10,
};
