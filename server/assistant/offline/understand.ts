import { parseDays, type DayRange } from './dates.ts';
import { outOfScope, mentionsVenue, refusalOf, SCOPE_VOCABULARY, type Refusal } from './safety.ts';
import { fold, hasAny, repairTypos, vocabularyIndex } from './text.ts';

/**
 * What the guest asks (offline model): the topics of one message, in English or Vietnamese, typed with or
 * without diacritics, with typos repaired against the words below. Several topics may be asked at once ("how much
 * is it and when is it on?"). Only the wording of questions lives here; every fact the answer states comes from
 * the tools. Besides the topics: the days and the party size named, the practical-information subjects
 * (directions, parking, children, …), cheapest / dearest, an attempt on the rules (refused), a question outside
 * the venue (declined), and whether the message is too vague to answer (a clarifying question).
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
  | 'partners'
  | 'ownBooking'
  | 'discounts';

/** Practical-information subjects, each answered by the published documents tagged for it. */
export type KnowledgeSubject = 'directions' | 'parking' | 'children' | 'dietary' | 'dress' | 'contact' | 'cancellation' | 'accessibility' | 'arrival' | 'payment';

export interface Understanding {
  topics: Topic[];
  /** Practical-information subjects asked about (answered from the knowledge documents tagged for them). */
  knowledge: KnowledgeSubject[];
  days?: DayRange;
  /** "The day after" / "the day before": days relative to the day the conversation was about. */
  relativeDay?: number;
  guests?: number;
  /** "The cheapest …" / "the most expensive …": one offer, not the list. */
  rank?: 'cheapest' | 'dearest';
  /** An attempt on the assistant's rules: refused, nothing else answered. */
  refusal?: Refusal;
  /** Something outside the venue is asked (weather, exchange rates, politics, …): declined. */
  outOfScope?: boolean;
  /** Nothing recognized and too short or unclear to be a question about the venue: ask what is meant. */
  vague?: boolean;
  /** The folded question with typos repaired (see `fold`), for show matching and knowledge search. */
  folded: string;
  /** `showDetails` only from a generic "what is …?": about a show only when one is named. */
  weakDetails?: boolean;
  /** `schedule` only because a day is named ("and on Saturday?"), no word of the message asks it. */
  dayOnly?: boolean;
  /** Completed from an earlier turn (a follow-up). */
  followUp?: boolean;
  /** Refers back ("it", "this show", "nó", "show này"): the show is the conversation's. */
  anaphora?: boolean;
  /** The show (or event) slug an earlier turn's tool calls were about, for a follow-up that names none. */
  contextShow?: string;
}

/** A night out rather than a day ("for a date", "date night"): the programme, recommended. */
const DATE_NIGHT = ['romantic', 'date night', 'for a date', 'on a date', 'first date', 'anniversary', 'honeymoon', 'hen ho', 'lang man', 'ky niem ngay cuoi'];

/**
 * The guest asks about a booking of their own ("what time is my booking?", "I booked under …", "I didn't get my
 * confirmation"). The assistant sees no booking, whoever asks: it says where the guest's own details are (the
 * confirmation e-mail and its link) and who can help, and never answers with the programme instead.
 */
const OWN_BOOKING = [
  'my booking', 'my bookings', 'my reservation', 'my reservations', 'my ticket', 'my tickets', 'our booking', 'our reservation', 'our tickets',
  'i booked', 'we booked', 'i have booked', 'we have booked', 'ive booked', 'weve booked', 'i made a booking', 'we made a booking', 'i made a reservation', 'we made a reservation', 'i reserved', 'we reserved', 'i have a booking', 'i have a reservation', 'we have a booking', 'we have a reservation',
  'booked under', 'booking under', 'reservation under', 'under my name', 'booking reference', 'booking number', 'reservation number', 'reference number', 'confirmation number', 'booking code',
  'confirmation email', 'confirmation e mail', 'booking confirmation', 'booking status', 'reservation status', 'status of my', 'find my booking', 'find my reservation', 'find my ticket*', 'look up my', 'check my booking', 'check my reservation',
  'didnt receive', 'did not receive', 'havent received', 'have not received', 'never received', 'didnt get', 'did not get', 'not received',
  'dat cho cua toi', 'dat cho cua minh', 'booking cua toi', 'booking cua minh', 'reservation cua toi', 've cua chung toi', 've cua toi', 've cua minh', 'toi da dat', 'minh da dat', 'toi dat roi', 'minh dat roi', 'da dat ve', 'da dat cho', 'ma dat cho', 'ma dat ve', 'don dat', 'kiem tra dat cho', 'kiem tra ve', 'email xac nhan', 'xac nhan dat', 'chua nhan duoc', 'khong nhan duoc',
];

const PHRASES: Record<Exclude<Topic, 'policy' | 'contact'>, string[]> = {
  greeting: ['hi', 'hello', 'hey', 'good morning', 'good evening', 'good afternoon', 'xin chao', 'chao', 'chao ban', 'alo', 'hola', 'helo'],
  thanks: ['thanks', 'thank you', 'thx', 'cam on', 'cam on ban', 'tks', 'great thanks', 'bye', 'goodbye', 'good bye', 'bye bye', 'see you', 'tam biet', 'chao tam biet', 'hen gap lai'],
  whatsOn: [
    'whats on', 'what is on', 'what s on', 'whats playing', 'what is playing', 'what shows', 'which shows', 'what show', 'which show', 'shows do you have', 'shows are', 'any shows', 'all shows', 'your shows', 'list of shows', 'list shows', 'list show', 'shows list', 'show list', 'danh sach show', 'danh sach chuong trinh', 'cac chuong trinh',
    'programme', 'program', 'lineup', 'line up', 'recommend', 'suggest', 'what can i see', 'what can we see', 'what do you have', 'what do you offer', 'performances', 'whats happening', 'what is happening', 'what events', 'which events', 'any events', 'what is there', 'whats there', 'is there anything', 'anything on', 'what else', 'upcoming events', 'events this', 'events on', 'something to see', 'something to watch',
    'co show', 'co gi', 'show gi', 'show nao', 'chuong trinh', 'dang dien', 'bieu dien gi', 'xem gi', 'co nhung', 'gioi thieu cac', 'nen xem', 'goi y', 'su kien nao', 'vo dien', 'tiet muc', 'cac show', 'nhung show',
  ],
  showDetails: [
    'tell me about', 'tell me more', 'details', 'describe', 'description', 'how long', 'duration', 'suitable', 'kids friendly', 'story', 'who performs', 'what happens', 'more info', 'worth', 'what kind', 'what type', 'about the show', 'is it good',
    'gioi thieu', 'noi dung', 'bao lau', 'keo dai', 'thoi luong', 'ke ve', 'thong tin', 'chi tiet', 'hay khong', 've gi',
  ],
  schedule: [
    'when', 'what time', 'which time', 'times', 'time', 'dates', 'date', 'schedule', 'showtime*', 'which days', 'what days', 'which day', 'what day', 'start', 'starts', 'begin', 'how often', 'next show', 'upcoming', 'playing', 'on tonight', 'is on', 'calendar',
    'khi nao', 'luc nao', 'may gio', 'gio nao', 'lich', 'lich dien', 'ngay nao', 'gio dien', 'suat', 'bat dau', 'hom nao', 'bao gio', 'suat dien', 'dien luc', 'dien khi',
  ],
  availability: [
    'available', 'availability', 'seats', 'seat', 'tickets left', 'sold out', 'soldout', 'space', 'room for', 'free table', 'left', 'full', 'any tickets', 'spots', 'is there room', 'table for', 'how many seats', 'still open', 'can we get', 'can i get',
    'con cho', 'con ve', 'het ve', 'het cho', 'con trong', 'cho trong', 'con ban', 'dat duoc', 'kip khong', 'du cho', 'con bao nhieu', 'bao nhieu cho', 'con khong',
  ],
  prices: [
    'price*', 'cost*', 'how much', 'fee', 'fees', 'vnd', 'dong', 'expensive', 'cheap*', 'budget', 'rate', 'rates', 'per person', 'menu', 'package*', 'option', 'options', 'vip', 'tier', 'total', 'pay for', 'what is included', 'whats included', 'included', 'include',
    'gia', 'bao nhieu tien', 'bao nhieu', 'chi phi', 'tien', 'goi nao', 'cac goi', 'hang ve', 'loai ve', 've vip', 'phi', 'tong cong', 'tong tien', 'het bao nhieu', 'gom nhung gi', 'bao gom',
  ],
  howToBook: [
    'book', 'booking', 'reserve', 'reservation', 'buy', 'purchase', 'get tickets', 'buy tickets', 'order', 'sign up', 'how do i book', 'how can i book', 'where can i book',
    'dat ve', 'dat cho', 'mua ve', 'dat ban', 'dat truoc', 'giu cho', 'dang ky', 'cach dat', 'dat', 'mua',
  ],
  privateEvents: [
    'private', 'corporate', 'company', 'team building', 'wedding', 'birthday party', 'party', 'hire', 'rent', 'buy out', 'buyout', 'exclusive', 'whole venue', 'large group', 'big group', 'group booking', 'group of', 'celebration', 'event for', 'gala', 'year end party', 'conference',
    'su kien rieng', 'tiec', 'cong ty', 'dam cuoi', 'tiec cuoi', 'thue', 'bao tron', 'doan dong', 'nhom lon', 'tiec sinh nhat', 'rieng tu', 'to chuc', 'tat nien', 'hoi nghi',
  ],
  waitlist: ['waitlist', 'waiting list', 'wait list', 'notify me', 'let me know if', 'danh sach cho', 'bao cho toi', 'bao minh'],
  partners: ['partner', 'partners', 'agency', 'travel agent', 'travel agency', 'tour operator', 'tour operators', 'affiliate', 'commission', 'doi tac', 'dai ly', 'cong ty du lich', 'hoa hong'],
  ownBooking: OWN_BOOKING,
  // Discounts, promo codes, vouchers: how codes are used (the offers' prices are the tools'; no code is given out).
  discounts: [
    'discount*', 'promo', 'promos', 'promo code*', 'promotion*', 'promotional', 'coupon*', 'voucher*', 'gift card*', 'gift certificate*', 'deal', 'deals', 'special offer*', 'student*', 'senior*', 'early bird', 'reduced price*', 'concession*',
    'giam gia', 'khuyen mai', 'ma giam gia', 'ma khuyen mai', 'uu dai', 'phieu qua tang', 'the qua tang', 'sinh vien', 'nguoi cao tuoi', 'chiet khau', 'voucher',
  ],
};

/** Practical-information subjects: how guests ask about them (the documents say the rest). */
const KNOWLEDGE: Record<KnowledgeSubject, string[]> = {
  directions: [
    'how far', 'distance from', 'walking distance', 'from the airport', 'bao xa', 'how to get', 'how do i get', 'how do we get', 'how can i get', 'how can we get', 'get there', 'get to you', 'get to the venue', 'getting there', 'directions', 'direction', 'find you', 'find the venue', 'where is', 'where are you', 'where are', 'where s', 'where exactly', 'located', 'location', 'address', 'map', 'taxi', 'grab', 'bus', 'walk', 'nearest', 'far from', 'district',
    'duong di', 'duong den', 'chi duong', 'den nha hat', 'toi nha hat', 'di den', 'den do', 'den bang', 'di the nao', 'di nhu the nao', 'di bang', 'o dau', 'nam o dau', 'dia chi', 'ban do', 'cach den', 'lam sao den', 'lam sao de den', 'toi bang', 'cho nao', 'quan may', 'o quan',
  ],
  parking: ['parking', 'park', 'car park', 'carpark', 'motorbike', 'motorbikes', 'motorcycle', 'scooter', 'car', 'cars', 'valet', 'do xe', 'dau xe', 'gui xe', 'bai xe', 'cho de xe', 'xe may', 'o to', 'oto', 'xe hoi'],
  children: ['children', 'child', 'kids', 'kid', 'baby', 'babies', 'toddler', 'infant', 'family', 'families', 'age limit', 'minimum age', 'how old', 'years old', 'year old', 'son', 'daughter', 'teen*', 'adults only', 'tre em', 'tre nho', 'em be', 'con nho', 'be nho', 'do tuoi', 'may tuoi', 'tuoi', 'con toi', 'gia dinh', 'dua con', 'con cua'],
  dietary: ['vegetarian', 'vegetarians', 'vegan', 'veggie', 'allerg*', 'dietary', 'diet', 'halal', 'kosher', 'gluten', 'lactose', 'dairy', 'nut', 'nuts', 'peanut*', 'seafood', 'shellfish', 'meat', 'pork', 'an chay', 'mon chay', 'chay', 'thuan chay', 'di ung', 'an kieng', 'hai san', 'dau phong', 'khong an thit', 'kieng'],
  dress: ['dress*', 'wear', 'wearing', 'attire', 'clothes', 'clothing', 'outfit', 'shorts', 'sandals', 'flip flops', 'jeans', 'formal', 'casual', 'trang phuc', 'mac gi', 'mac the nao', 'mac do', 'quan ao', 'quan dui', 'dep le', 'dep tong', 'an mac', 'ao khoac'],
  contact: ['contact', 'phone', 'call you', 'telephone', 'email', 'e mail', 'hotline', 'zalo', 'whatsapp', 'reach you', 'opening hours', 'open hours', 'box office', 'at the door', 'at the entrance', 'walk in', 'walk ins', 'on the door', 'tai quay', 'tai cua', 'mua truc tiep', 'talk to', 'speak to', 'lien he', 'dien thoai', 'so dien thoai', 'goi dien', 'sdt', 'quay ve', 'gio mo cua', 'lien lac'],
  cancellation: ['cancel*', 'refund*', 'money back', 'reschedul*', 'change my booking', 'change the date', 'change date', 'move my booking', 'no show', 'huy', 'hoan tien', 'hoan ve', 'doi ve', 'doi ngay', 'doi lich', 'tra ve', 'lay lai tien', 'hoan lai'],
  accessibility: ['wheelchair', 'accessib*', 'disabled', 'disability', 'stairs', 'steps', 'elevator', 'lift', 'mobility', 'xe lan', 'khuyet tat', 'thang may', 'cau thang', 'di lai kho khan'],
  arrival: ['booking close*', 'booking cut*', 'book until', 'latest i can book', 'last minute booking', 'how late can i book', 'dong dat', 'han dat', 'arrive', 'arrival', 'come early', 'how early', 'early', 'late', 'doors open', 'doors', 'what time should', 'when should we', 'when should i', 'den som', 'den tre', 'den muon', 'nen den', 'mo cua luc', 'den luc nao', 'den truoc', 'tre gio', 'mo cua'],
  payment: ['pay', 'paying', 'payment', 'card', 'cards', 'credit card', 'visa', 'mastercard', 'cash', 'deposit', 'vnpay', 'momo', 'bank transfer', 'transfer', 'thanh toan', 'the tin dung', 'tien mat', 'chuyen khoan', 'dat coc', 'tra tien', 'quet the'],
};

/** Other policy words (answered by searching the knowledge base). */
const POLICY_PHRASES = ['policy', 'policies', 'terms', 'rules', 'allowed', 'bring', 'smoking', 'smoke', 'photo*', 'camera', 'record', 'pets', 'pet', 'dog', 'cloakroom', 'luggage', 'toilet', 'wifi', 'chinh sach', 'quy dinh', 'mang theo', 'hut thuoc', 'chup anh', 'quay phim', 'thu cung', 'cho meo', 'gui do', 'hanh ly'];

const CHEAPEST = ['cheapest', 'cheaper', 'lowest', 'least expensive', 'most affordable', 'affordable', 'budget', 'basic', 're nhat', 'thap nhat', 're hon', 'gia re', 're', 'tiet kiem'];
const DEAREST = ['most expensive', 'dearest', 'priciest', 'highest', 'premium', 'luxury', 'best package', 'top package', 'dat nhat', 'cao nhat', 'sang nhat', 'cao cap', 'xin nhat'];

const RELATIVE_DAYS: Array<[string[], number]> = [
  [['the day after', 'day after', 'the next day', 'next day', 'the following day', 'following day', 'a day later', 'hom sau', 'ngay hom sau', 'ngay tiep theo', 'ngay sau do', 'hom sau nua', 'ngay ke tiep'], 1],
  [['the day before', 'day before', 'the previous day', 'a day earlier', 'hom truoc', 'ngay hom truoc', 'ngay truoc do'], -1],
];

const STRONG_DIRECTIONS = ['directions', 'direction', 'address', 'located', 'location', 'map', 'get there', 'how to get', 'dia chi', 'duong di', 'chi duong', 'ban do', 'den bang', 'nam o dau', 'den nha hat', 'toi nha hat', 'den do', 'lam sao den', 'lam sao de den', 'di den'];

const STRONG_PRIVATE = ['private', 'corporate', 'company', 'wedding', 'buy out', 'buyout', 'whole venue', 'exclusive', 'team building', 'su kien rieng', 'cong ty', 'dam cuoi', 'tiec cuoi', 'bao tron', 'thue'];

const ANAPHORA = ['it', 'its', 'this', 'that', 'them', 'they', 'there', 'the show', 'this show', 'that show', 'same show', 'no', 'show nay', 'show do', 'chuong trinh nay', 'chuong trinh do', 'suat nay', 'suat do', 'cai nay', 'cai do', 'cai kia'];

const WEAK_DETAILS = ['what is', 'whats', 'about', 'la gi', 'information', 'info', 'the nao', 'nhu the nao', 'ra sao'];
const QUESTION_WORDS = ['what', 'when', 'where', 'how', 'which', 'who', 'why', 'can', 'do', 'does', 'is', 'are', 'could', 'would', 'will', 'gi', 'nao', 'sao', 'khong', 'bao nhieu', 'o dau', 'the nao', 'chua', 'co'];

const GUEST_WORDS = 'people|persons|person|guests|guest|pax|adults|adult|of us|ppl|tickets|ticket|seats|nguoi|ng|khach|ve|cho|suat|vi';
const NUMBER_WORDS: Record<string, number> = {
  one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10, eleven: 11, twelve: 12, fifteen: 15, twenty: 20, thirty: 30, forty: 40, fifty: 50,
  couple: 2, mot: 1, hai: 2, ba: 3, bon: 4, nam: 5, sau: 6, bay: 7, tam: 8, chin: 9, muoi: 10,
};
const MONTH_WORDS = 'january|jan|february|feb|march|mar|april|apr|may|june|jun|july|jul|august|aug|september|sep|sept|october|oct|november|nov|december|dec|thang';

const { vocabulary, byInitial } = vocabularyIndex([
  ...Object.values(PHRASES).flat(),
  ...Object.values(KNOWLEDGE).flat(),
  ...POLICY_PHRASES,
  ...CHEAPEST,
  ...DEAREST,
  ...RELATIVE_DAYS.flatMap(([phrases]) => phrases),
  ...SCOPE_VOCABULARY,
  ...Object.keys(NUMBER_WORDS),
  ...GUEST_WORDS.split('|'),
  ...'nguoi khach hang email thong tin danh sach so dien thoai nhieu duoc khong chuong trinh bieu dien'.split(' '),
  ...'monday tuesday wednesday thursday friday saturday sunday tomorrow today tonight weekend week month january february march april june july august september october november december people persons guests adults tickets'.split(' '),
]);

/** The topics, days and party size of the guest's message. */
export function understand(text: string, now: Date, zone: string): Understanding {
  const folded = repairTypos(fold(text), vocabulary, byInitial);
  const refusal = refusalOf(text) ?? refusalOf(text, folded);
  const topics = new Set<Topic>();
  const knowledge: KnowledgeSubject[] = [];
  let weakDetails = false;
  for (const [topic, phrases] of Object.entries(PHRASES) as Array<[Topic, string[]]>) {
    if (hasAny(folded, phrases)) topics.add(topic);
  }
  for (const [subject, phrases] of Object.entries(KNOWLEDGE) as Array<[KnowledgeSubject, string[]]>) {
    if (hasAny(folded, phrases)) knowledge.push(subject);
  }
  const rank = hasAny(folded, DEAREST) ? 'dearest' : hasAny(folded, CHEAPEST) && !hasAny(folded, ['re trai', 're phai']) ? 'cheapest' : undefined;
  if (rank) topics.add('prices');
  if (hasAny(folded, POLICY_PHRASES)) topics.add('policy');
  // "Khuyến mãi" (a promotion) holds "mai" (tomorrow): no day.
  const days = parseDays(folded.replace(/ khuyen mai(?= )/g, ''), now, zone);
  const relativeDay = days ? undefined : RELATIVE_DAYS.find(([phrases]) => hasAny(folded, phrases))?.[1];
  const guests = partySize(folded);
  const showWords = hasAny(folded, ['show*', 'ticket*', 've', 'seat*', 'performance*', 'suat', 'chuong trinh', 'per person', 'moi nguoi', 'moi khach', 'per guest', 'package*', 'goi']);

  // Practical information wins over the words it shares with the live topics: "how much is parking?", "what
  // time should we arrive?", "is the menu vegetarian?", "where do I book a taxi?" are not price, schedule or
  // booking questions — unless a show, a day or tickets are named too.
  // "Where do I book?" / "book … ở đâu?": where to book online; "where are my tickets?" / "vé của tôi ở đâu?": the
  // guest's own booking — not the venue's address.
  if ((topics.has('howToBook') || topics.has('ownBooking')) && knowledge.includes('directions') && !hasAny(folded, STRONG_DIRECTIONS)) knowledge.splice(knowledge.indexOf('directions'), 1);
  if (knowledge.length) {
    topics.add('policy');
    if (knowledge.includes('contact') || knowledge.includes('directions')) topics.add('contact');
    const live = showWords || days !== undefined || guests !== undefined;
    if (!live) {
      for (const topic of ['prices', 'schedule', 'howToBook', 'availability', 'showDetails', 'whatsOn'] as Topic[]) {
        if (topic === 'prices' && rank) continue;
        topics.delete(topic);
      }
    } else if (!showWords && knowledge.some((subject) => subject === 'arrival' || subject === 'directions' || subject === 'parking')) {
      topics.delete('prices');
      topics.delete('howToBook');
    }
    // "Does a 3-year-old need a ticket?" / "trẻ em 3 tuổi có phải mua vé không?", "can I book a vegetarian menu?":
    // the practical answer, not the booking links — unless a day or a party is named, or how to book is asked.
    if (topics.has('howToBook') && !days && guests === undefined && !hasAny(folded, ['how do i', 'how can i', 'how do we', 'how to', 'where can', 'where do', 'lam sao', 'cach', 'o dau', 'the nao', 'nhu the nao'])) topics.delete('howToBook');
    // A practical question about the venue is not a request for the programme ("chính sách hủy vé thế nào?").
    topics.delete('showDetails');
    topics.delete('whatsOn');
    // "Can I cancel my booking?" / "change the date": a policy, not a booking or a schedule question.
    if (knowledge.includes('cancellation') || knowledge.includes('payment')) {
      topics.delete('howToBook');
      if (!days) topics.delete('schedule');
      if (!rank && !hasAny(folded, ['how much', 'price*', 'cost*', 'bao nhieu tien', 'gia ve'])) topics.delete('prices');
    }
  }
  // "What is …?" / "… là gì?" asks about a show only when nothing more specific is asked.
  if (topics.size === 0 || [...topics].every((topic) => topic === 'greeting' || topic === 'thanks')) {
    if (hasAny(folded, WEAK_DETAILS)) {
      topics.add('showDetails');
      weakDetails = true;
    }
  }
  // "Is Saturday free for 4?" names a day and a party: an availability question whatever the words; "can I book
  // for 12?" too (whether a party that size is taken, and where).
  if ((days || topics.has('howToBook')) && guests !== undefined && !topics.has('prices') && !topics.has('privateEvents')) topics.add('availability');
  // "Do you have anything on Friday?" names a day: when and what is on then.
  const scheduleAsked = topics.has('schedule');
  if (days && !topics.has('availability') && !topics.has('prices') && !topics.has('whatsOn') && !knowledge.length && !hasAny(folded, ['what is', 'whats', 'la gi'])) topics.add('schedule');
  // "Group of 40" is a private-event question past the public booking sizes; decided against the offers later.
  if (topics.has('availability') && topics.has('privateEvents') && !hasAny(folded, ['private', 'su kien rieng', 'wedding', 'dam cuoi', 'company', 'cong ty'])) topics.delete('privateEvents');
  if (topics.has('partners')) topics.delete('privateEvents');
  // "Price for a party of 4": a party, not a private event (those are groups past the public booking sizes).
  if (topics.has('privateEvents') && guests !== undefined && guests < 20 && !hasAny(folded, STRONG_PRIVATE)) topics.delete('privateEvents');
  // "Còn bao nhiêu chỗ?" (how many seats are left) is no price question.
  if (topics.has('availability') && topics.has('prices') && !rank && !hasAny(folded, ['gia', 'tien', 'price*', 'cost*', 'how much', 'chi phi', 'phi', 'total', 'tong'])) topics.delete('prices');
  // Ticket words name the subject of "how much": a ticket price, not the cost of a taxi.
  if (topics.has('prices') && topics.has('howToBook') && !hasAny(folded, ['how do i', 'how can i', 'how to', 'where can', 'lam sao', 'cach', 'o dau'])) topics.delete('howToBook');

  // "Mã giảm giá" (a discount code) holds "giá" (price): a discount question, not the price list, unless asked too.
  if (topics.has('discounts') && topics.has('prices') && !rank && !hasAny(folded.replace(/ (?:ma )?giam gia(?= )/g, ''), PHRASES.prices)) topics.delete('prices');
  // "Is there a waiting list for sold-out shows?": how to join it, not the seats of every performance.
  if (topics.has('waitlist') && !days && guests === undefined) for (const topic of ['availability', 'schedule', 'whatsOn'] as Topic[]) topics.delete(topic);
  // "The best show for a romantic date": a recommendation, not a date on the calendar.
  if (hasAny(folded, DATE_NIGHT)) {
    topics.add('whatsOn');
    if (!days) topics.delete('schedule');
  }
  // A booking of the guest's own is not the programme ("what time is my booking?" asks no schedule): unless a day is
  // named ("I booked for Saturday: when does it start?" asks the public times) or a practical subject other than
  // how to reach us is asked ("can I cancel my booking?": the cancellation policy says how).
  if (topics.has('ownBooking')) {
    if (days || knowledge.some((subject) => subject !== 'contact')) topics.delete('ownBooking');
    else for (const topic of ['whatsOn', 'showDetails', 'schedule', 'availability', 'prices', 'howToBook', 'privateEvents', 'waitlist'] as Topic[]) topics.delete(topic);
  }

  const understood: Understanding = { topics: [...topics], knowledge, days, relativeDay, guests, rank, folded, weakDetails, dayOnly: topics.has('schedule') && !scheduleAsked };
  if (refusal) return { ...understood, refusal, topics: [], knowledge: [] };
  if (outOfScope(folded)) {
    understood.outOfScope = true;
    // Only the part about the venue is answered ("is the show indoors? and will it rain?"); nothing when the
    // venue is not mentioned ("what's the weather on Saturday?" names a day, not a show).
    if (!mentionsVenue(folded) && !knowledge.length) {
      understood.topics = understood.topics.filter((topic) => topic === 'greeting' || topic === 'thanks');
      understood.days = undefined;
      understood.guests = undefined;
    }
  }
  understood.anaphora = hasAny(folded, ANAPHORA);
  const informative = understood.topics.some((topic) => topic !== 'greeting' && topic !== 'thanks' && !(topic === 'showDetails' && weakDetails));
  if (!informative && !understood.outOfScope && !relativeDay && guests === undefined) {
    const words = folded.trim().split(' ').filter((word) => word.length > 1);
    // A short question about "that" with nothing named ("cái kia thì sao?") is vague too.
    understood.vague = words.length < 3 || !hasAny(folded, QUESTION_WORDS) || (weakDetails && words.length <= 4) || (Boolean(understood.anaphora) && words.length <= 4);
  }
  return understood;
}

function partySize(folded: string): number | undefined {
  // "2 adults and 2 kids", "2 người lớn và 1 trẻ em": the party is everyone.
  const mixed = folded.match(/ (\d{1,2}) (?:adults?|nguoi lon) (?:and|va|\+|,)? ?(\d{1,2}) (?:kids?|children|child|tre em|tre con|be|chau) /);
  if (mixed) return Number(mixed[1]) + Number(mixed[2]);
  const words = Object.keys(NUMBER_WORDS).join('|');
  const match =
    folded.match(new RegExp(` (\\d{1,3}) (?:${GUEST_WORDS}) `)) ??
    folded.match(new RegExp(` (?:for|party of|group of|table for|nhom|doan|we are|were|there are|di|chung toi|tui toi|bon toi) (\\d{1,3}) (?!(?:${MONTH_WORDS}|am|pm|h|gio|pm|:|/))`)) ??
    folded.match(new RegExp(` (${words}) (?:${GUEST_WORDS}) `)) ??
    folded.match(new RegExp(` (?:for|party of|group of|table for|we are|were|there are) (${words})(?: |$)`));
  if (!match) return undefined;
  const value = NUMBER_WORDS[match[1]] ?? Number(match[1]);
  return Number.isInteger(value) && value > 0 && value <= 500 ? value : undefined;
}
