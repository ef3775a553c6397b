import type { ShowFact } from '../facts.ts';
import { lexicon, type Lexicon } from '../language/lexicon.ts';
import { matchShow } from '../language/shows.ts';
import { parseDays, type DayRange } from './dates.ts';
import { refusalOf, type Refusal } from './safety.ts';
import { fold, languageOf, repairTypos } from './text.ts';

/**
 * What the guest asks (offline model), read once per turn from the language data (../language: intents and their
 * phrasings per language, slot lists): the message is split into its requests (sentences, and the parts joined by
 * "and", "also", "còn", "với lại", a comma … when each part asks something of its own), each request is scored
 * against every intent, and the intents scoring near its best are what it asks — precedence comes from the scores,
 * never from a fixed order. Besides the intents, each request's slots: the days named, the party (adults, children
 * and their ages), cheapest / dearest, a reference to what the last answer presented ("the earlier one", "the next
 * one after that", "the 8pm"), "book it", and the show named (when the shows are known). Nothing here holds a
 * phrase: every word it reads is in the data files.
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
  | 'discounts'
  | 'giftVouchers';

const TOPICS = new Set<string>(['greeting', 'thanks', 'whatsOn', 'showDetails', 'schedule', 'availability', 'prices', 'howToBook', 'policy', 'privateEvents', 'waitlist', 'partners', 'ownBooking', 'discounts', 'giftVouchers']);

/** A practical-information subject (an intent of kind `subject` in intents.yaml), answered by the documents tagged for it. */
export type KnowledgeSubject = string;

/** Who the party is: everyone counted (`guests`), and what the message said of adults and children. */
export interface Party {
  guests: number;
  adults?: number;
  children?: number;
  /** The children's ages, where given. */
  childAges?: number[];
}

/** What the last answer presented, referred to: the first / last of it, the one after / before the one discussed, "that one", a time. */
export type Reference = { kind: 'first' | 'last' | 'previous' | 'that' } | { kind: 'next'; count?: number } | { kind: 'time'; time: string };

/** One request of a message, as understood. */
export interface Request {
  folded: string;
  topics: Topic[];
  knowledge: KnowledgeSubject[];
  /** Intents of kind `decline` asked in this request (weather, sport …). */
  declined: string[];
  days?: DayRange;
  relativeDay?: number;
  party?: Party;
  rank?: 'cheapest' | 'dearest';
  weakDetails?: boolean;
  dayOnly?: boolean;
  reference?: Reference;
  bookIt?: boolean;
  show?: ShowFact;
}

export interface Understanding {
  topics: Topic[];
  /** Practical-information subjects asked about (answered from the knowledge documents tagged for them). */
  knowledge: KnowledgeSubject[];
  days?: DayRange;
  /** "The day after" / "the day before": days relative to the day the conversation was about. */
  relativeDay?: number;
  guests?: number;
  party?: Party;
  /** "The cheapest …" / "the most expensive …": one offer, not the list. */
  rank?: 'cheapest' | 'dearest';
  /** The rank is against what was discussed ("the cheaper one", "gói rẻ hơn"), not the whole programme. */
  comparative?: boolean;
  /** An attempt on the assistant's rules: refused, nothing else answered. */
  refusal?: Refusal;
  /** Something outside the venue is asked: each such subject declined in one line (`declined`). */
  outOfScope?: boolean;
  declined: string[];
  /** Nothing recognized and too short or unclear to be a question about the venue: ask what is meant. */
  vague?: boolean;
  /** The folded message with shorthand written out and typos repaired. */
  folded: string;
  /** The requests about the venue, folded (what the documents are searched with). */
  searchText: string;
  /** `showDetails` only from a generic "what is …?": about a show only when one is named. */
  weakDetails?: boolean;
  /** `schedule` only because a day is named ("and on Saturday?"), no word of the message asks it. */
  dayOnly?: boolean;
  /** Completed from an earlier turn (a follow-up). */
  followUp?: boolean;
  /** Starts as a follow-up does ("and …", "what about …", "còn …"). */
  opensFollowUp?: boolean;
  /** The children's rules were read from a party with children and nothing else asked (a follow-up may ask more). */
  childrenInferred?: boolean;
  /**
   * How the party named relates to the conversation's (a follow-up's): `add` — people join it ("grandma is coming
   * too", "thêm 1 bé nữa"); `restate` — it is said again ("sorry, 5", "2 bé chứ").
   */
  partyChange?: 'add' | 'restate';
  /** Refused, and the message also asked about the guest's own booking. */
  ownBookingAsked?: boolean;
  /** A bare count said again ("so 4", "I meant 5", "we do 10 only"): the conversation's party, now this many. */
  restatedGuests?: number;
  /** Refers back ("it", "this show", "nó", "show này"): the show is the conversation's. */
  anaphora?: boolean;
  /** Asks across the programme ("which shows …", "any show"): no one show. */
  acrossShows?: boolean;
  /** How long the shows last is asked. */
  wantsDuration?: boolean;
  /** What an option includes is asked ("what comes with …", "gồm những gì"). */
  wantsIncludes?: boolean;
  reference?: Reference;
  bookIt?: boolean;
  /** The show the message names (when the shows were known), and whether it named it only by a word that is also an everyday word or a place. */
  show?: ShowFact;
  /** The show (or event) slug an earlier turn's tool calls were about, for a follow-up that names none. */
  contextShow?: string;
  /** The language the message is clearly written in, when it is. */
  language?: 'en' | 'vi';
  requests: Request[];
  /** The turn before, understood (for a follow-up). */
  previous?: Understanding;
}

export interface UnderstandOptions {
  /** The programme, when known: the show a request names is read with it. */
  shows?: ShowFact[];
  lexicon?: Lexicon;
}

/** The requests, intents and slots of the guest's message. */
export function understand(text: string, now: Date, zone: string, options: UnderstandOptions = {}): Understanding {
  const lex = options.lexicon ?? lexicon();
  const folded = normalise(text, lex);
  const structural = refusalOf(text, undefined, { privateData: false }) ?? refusalOf(text, folded, { privateData: false });
  const requests = splitRequests(text, lex).map((part) => readRequest(part, now, zone, lex, options.shows));
  // A request with little evidence of its own goes on with the one before it: after one outside the venue ("is
  // bitcoin going up? should I buy?"), or when it refers back ("I booked under …, what time is it?").
  for (let i = 1; i < requests.length; i++) {
    const before = requests[i - 1];
    const request = requests[i];
    const opens = lex.opens(request.folded, 'splitters') || lex.opens(request.folded, 'followUp');
    const outside = before.declined.length > 0 && !before.topics.length && !before.knowledge.length;
    const beforeAsks = outside || before.topics.some((topic) => topic !== 'greeting' && topic !== 'thanks') || before.knowledge.length > 0;
    const absorbing = before.topics.some((topic) => lex.info(topic)?.absorbs);
    const refersBack = lex.has(request.folded, 'anaphora') && (absorbing || !request.topics.length);
    // A day alone after a subject outside the venue is that subject's day ("will it rain in Hanoi? flying up Sat").
    const dayOfOutside = outside && request.dayOnly;
    // So is a price or a time asked only by how it is asked, nothing of the venue named ("is the delta tour worth
    // it? how much do they charge per person") — once the programme is known, so that a show named is seen.
    // A venue word any attraction shares ("the ticket", "giá vé", "book") is the subject's before it when that one
    // sells tickets or takes bookings too (intents.yaml `sellsTickets`: a museum, a tour, a spa), not the weather's.
    const selling = outside && before.declined.some((intent) => lex.info(intent)?.sellsTickets);
    const venueNamed = lex.found(request.folded, 'venueWords').some((phrase) => !(selling && lex.list('sharedVenueWords').includes(phrase)));
    // So is booking it for someone on a day ("spa nào … mình muốn book cho mẹ dịp 20/10"): the outside subject's.
    const askedOfOutside = outside && Boolean(options.shows?.length) && !request.show && !request.knowledge.length && request.topics.length > 0 && request.topics.every((topic) => topic === 'prices' || topic === 'schedule' || topic === 'showDetails' || topic === 'howToBook' || topic === 'availability') && !venueNamed;
    if (beforeAsks && ((outside && !venueNamed) || refersBack) && (request.best <= 1 || askedOfOutside) && !opens && !request.show && ((!request.party && (!request.days || dayOfOutside)) || askedOfOutside) && !request.refused.length) {
      if (askedOfOutside) request.party = undefined;
      if (askedOfOutside || dayOfOutside) {
        request.days = undefined;
        request.dayOnly = false;
      }

      request.declined = [...before.declined];
      request.topics = [...before.topics];
      request.knowledge = [...before.knowledge];
      request.rank = before.rank;
    }
  }

  const refused = requests.flatMap((request) => request.refused);
  const refusal: Refusal | undefined = structural ?? (refused.includes('injection') ? 'override' : refused.includes('privateData') ? 'privateData' : refused.includes('socialEngineering') ? 'socialEngineering' : undefined);

  const answered = requests.filter((request) => request.topics.length || request.knowledge.length || request.days || request.party || request.relativeDay !== undefined || request.reference || request.bookIt || request.show);
  // Slots named in one request serve the others that name none ("any show tomorrow night? how much for 2?").
  const days = answered.find((request) => request.days)?.days;
  const party = partyOfMessage(answered.flatMap((request) => (request.party ? [request.party] : [])));
  for (const request of answered) {
    if (!request.days && days && request.declined.length === 0) request.days = days;
    if (party) request.party = party;
  }
  const topics = new Set<Topic>();
  const knowledge: string[] = [];
  for (const request of requests) {
    for (const topic of request.topics) topics.add(topic);
    for (const subject of request.knowledge) if (!knowledge.includes(subject)) knowledge.push(subject);
  }
  const declined = [...new Set(requests.flatMap((request) => request.declined))];
  // Children named and nothing else asked ("my 3-year-old, can she come?"): the children's rules.
  const opensFollowUp = lex.opens(folded, 'followUp');
  const childrenInferred = Boolean(party?.children && !opensFollowUp && !topics.size && !knowledge.length && !declined.length && !requests.some((request) => request.show) && lex.info('children')?.kind === 'subject');
  if (childrenInferred) knowledge.push('children');
  // Whether children pay, need a seat or a ticket of their own ("bé 2 tuổi có cần mua vé không", "do the kids pay
  // full price?"): the children's rules, beside whatever else is asked.
  if (party?.children && !knowledge.includes('children') && lex.has(folded, 'childCost') && lex.info('children')?.kind === 'subject') knowledge.push('children');
  const scopeFolded = requests.filter((request) => request.declined.length === 0 || request.topics.length || request.knowledge.length);
  const understanding: Understanding = {
    topics: [...topics],
    knowledge,
    days,
    relativeDay: requests.find((request) => request.relativeDay !== undefined)?.relativeDay,
    guests: party?.guests,
    party,
    // "The difference between the cheaper one and the dinner one": the options side by side, what each includes.
    rank: lex.has(folded, 'compareWords') ? undefined : requests.find((request) => request.rank)?.rank,
    declined,
    outOfScope: declined.length > 0 || undefined,
    folded,
    searchText: scopeFolded.map((request) => request.folded).join(' ').trim() || folded.trim(),
    weakDetails: requests.some((request) => request.weakDetails) && !requests.some((request) => request.topics.some((topic) => topic !== 'showDetails' && topic !== 'greeting' && topic !== 'thanks')),
    dayOnly: requests.some((request) => request.dayOnly) && !requests.some((request) => request.topics.includes('schedule') && !request.dayOnly),
    opensFollowUp,
    childrenInferred,
    partyChange: lex.has(folded, 'corrections') || lex.has(folded, 'partyRestate') ? 'restate' : lex.has(folded, 'partyAdd') ? 'add' : undefined,
    restatedGuests: party ? undefined : restatedCount(folded, lex),
    anaphora: lex.has(folded, 'anaphora'),
    acrossShows: lex.has(folded, 'acrossShows'),
    wantsDuration: lex.has(folded, 'duration'),
    wantsIncludes: lex.has(folded, 'includes') || lex.has(folded, 'compareWords'),
    comparative: lex.has(folded, 'comparatives') || undefined,
    // The last one said that is more than "that" ("can't do that one. and the one after?": the one after it; "the
    // one after that one? we're busy that day": still the one after).
    reference: [...requests].reverse().find((request) => request.reference && request.reference.kind !== 'that')?.reference ?? requests.find((request) => request.reference)?.reference,
    bookIt: requests.some((request) => request.bookIt),
    show: requests.find((request) => request.show)?.show,
    language: clearLanguage(text, folded, lex),
    requests: requests.map(({ refused: _refused, ...request }) => request),
  };
  // A refusal of a booking looked up by a name ("check my booking under name Lan") also says where one's own is.
  if (refusal) return { ...understanding, refusal, ownBookingAsked: understanding.topics.includes('ownBooking') || undefined, topics: [], knowledge: [] };
  const informative = understanding.topics.some((topic) => topic !== 'greeting' && topic !== 'thanks' && !(topic === 'showDetails' && understanding.weakDetails));
  if (!understanding.topics.length && !knowledge.length && !understanding.outOfScope && understanding.relativeDay === undefined && !party && !understanding.reference && !understanding.bookIt && !understanding.show) {
    const words = folded.trim().split(' ').filter((word) => word.length > 1);
    // A short question about "that" with nothing named is vague too.
    understanding.vague = words.length < 3 || !lex.has(folded, 'questionWords') || (Boolean(understanding.weakDetails) && words.length <= 4) || (Boolean(understanding.anaphora) && words.length <= 4);
  }
  return understanding;
}

/** Folded, shorthand written out, typos repaired against the language data's words. */
export function normalise(text: string, lex: Lexicon = lexicon()): string {
  return repairTypos(lex.expand(fold(text)), lex.vocabulary, vocabularyByInitial(lex));
}

const byInitialCache = new WeakMap<Lexicon, Map<string, string[]>>();
function vocabularyByInitial(lex: Lexicon): Map<string, string[]> {
  let index = byInitialCache.get(lex);
  if (!index) {
    index = new Map();
    for (const word of lex.vocabulary) if (word.length >= 4) index.set(word[0], [...(index.get(word[0]) ?? []), word]);
    byInitialCache.set(lex, index);
  }
  return index;
}

/**
 * The message's requests: its sentences, each cut further where a joining word or a comma separates two parts
 * that each ask something of their own ("what's the weather tomorrow and do you have a show?"), never inside one
 * request ("2 adults and 2 kids").
 */
export function splitRequests(text: string, lex: Lexicon): string[] {
  const out: string[] = [];
  for (const sentence of text.split(/[?!;\n]+|\.(?=\s|$)|\s[-–—]\s/)) {
    // Commas and "+" join what may be two requests or one ("2 adults, 2 kids"): parts that each ask something stay apart.
    const pieces = sentence
      .split(/,|\+|\s&\s/)
      .map((piece) => normalise(piece, lex))
      .filter((piece) => piece.trim());
    let current: string | undefined;
    for (const piece of pieces) {
      if (current === undefined) current = piece;
      else if (asksOnItsOwn(current, lex) && asksOnItsOwn(piece, lex)) {
        out.push(...cut(current, lex));
        current = piece;
      } else current = ` ${current.trim()} ${piece.trim()} `;
    }
    if (current !== undefined) out.push(...cut(current, lex));
  }
  return out.length ? out : [normalise(text, lex)];
}

function cut(folded: string, lex: Lexicon): string[] {
  const words = folded.trim().split(' ');
  // A party said in words ("me and my wife") is one slot, never two requests.
  const inParty = new Set<number>();
  for (const phrase of lex.list('couple')) for (const at of occurrences(words, phrase)) for (let k = 1; k < phrase.split(' ').length; k++) inParty.add(at + k);
  // So are the words a party was read from ("2 adults + kids 4 and 9").
  for (const at of readParty(folded, lex).used) inParty.add(at);
  for (let i = 1; i < words.length - 1; i++) {
    if (inParty.has(i)) continue;
    const boundaries = lex.list('splitters').filter((phrase) => words.slice(i, i + phrase.split(' ').length).join(' ') === phrase);
    if (!boundaries.length) continue;
    const splitter = boundaries.sort((a, b) => b.length - a.length)[0];
    const left = ` ${words.slice(0, i).join(' ')} `;
    const right = ` ${words.slice(i + splitter.split(' ').length).join(' ')} `;
    if (asksOnItsOwn(left, lex) && asksOnItsOwn(right, lex)) return [left, ...cut(right, lex)];
  }
  return [folded];
}

/** Whether a part of a message asks something by itself: an intent scores, or a day with a show word. */
function asksOnItsOwn(folded: string, lex: Lexicon): boolean {
  const { scores, matches } = lex.score(withoutParty(folded, lex));
  for (const [intent, score] of scores) {
    const kind = lex.info(intent)?.kind;
    // Weak cues alone ("family") ask nothing by themselves.
    const firm = matches.some((match) => match.intent === intent && !match.weak);
    if (score >= lex.keep.minimum && firm && kind !== 'social') return true;
  }
  return false;
}

type ReadRequest = Request & { refused: string[]; best: number };

/** The text without the words that said the party (slot values are no intent's cues). */
function withoutParty(folded: string, lex: Lexicon): string {
  const { used } = readParty(folded, lex);
  return used.size ? ` ${folded.trim().split(' ').filter((_word, i) => !used.has(i)).join(' ')} ` : folded;
}

function readRequest(folded: string, now: Date, zone: string, lex: Lexicon, shows?: ShowFact[]): ReadRequest {
  // The party's words are its values, not cues ("2 kids" asks no children's policy).
  const { party: partyNamed, used } = readParty(folded, lex);
  const unparty = used.size ? ` ${folded.trim().split(' ').filter((_word, i) => !used.has(i)).join(' ')} ` : folded;
  let scored = unparty;
  // The words that name a show are its name, not cues ("múa rối nước" holds "mua", to buy).
  const named = shows?.length ? matchShow(scored, shows, lex, 2) : undefined;
  if (named) scored = withoutNameOf(named, scored);
  const { scores } = lex.score(scored);
  // An attempt on another guest's data is read with the people it names ("anh Khoa đặt bàn … ngày nào"): the
  // words a party was counted from are no cues of the live topics, but they are who the request is about.
  if (used.size) {
    for (const [intent, score] of lex.score(named ? withoutNameOf(named, folded) : folded).scores) {
      if (lex.info(intent)?.kind === 'refuse' && score > (scores.get(intent) ?? 0)) scores.set(intent, score);
    }
  }
  const best = Math.max(0, ...scores.values());
  const kept = [...scores].filter(([, score]) => score >= lex.keep.minimum && score >= best * lex.keep.ratio).map(([intent]) => intent);
  const topics = new Set<Topic>();
  const knowledge: string[] = [];
  const declined: string[] = [];
  const refused: string[] = [];
  // A live question asked only by how it is asked ("how much", "giá", "what time") beside a subject outside the
  // venue, with nothing of the venue named (a show, a party, a venue word), is that subject's question: the taxi's
  // price, the weather's time. Practical subjects stay (they name what they are about).
  const aboutOutside = kept.some((intent) => lex.info(intent)?.kind === 'decline') && !named && !partyNamed && !lex.has(scored, 'venueWords');
  for (const intent of kept) {
    const kind = lex.info(intent)?.kind;
    if (aboutOutside && kind === 'topic') continue;
    if (kind === 'refuse') refused.push(intent);
    else if (kind === 'decline') declined.push(intent);
    else if (kind === 'subject' && intent === 'policy') topics.add('policy');
    else if (kind === 'subject') knowledge.push(intent);
    else if (TOPICS.has(intent)) topics.add(intent as Topic);
  }
  // A day inside a phrase that is no day ("khuyến mãi" holds "mai") is not read.
  let dayText = folded;
  for (const phrase of lex.list('notDays')) dayText = dayText.split(` ${phrase} `).join(' ');
  const days = declined.length && !topics.size && !knowledge.length ? undefined : parseDays(dayText, now, zone);
  const relativeDay = days ? undefined : lex.has(folded, 'dayAfter') ? 1 : lex.has(folded, 'dayBefore') ? -1 : undefined;
  const party = declined.length && !topics.size && !knowledge.length ? undefined : partyNamed;
  const outside = declined.length > 0 && !topics.size && !knowledge.length;
  const rank = outside ? undefined : lex.has(folded, 'dearest') ? 'dearest' : lex.has(folded, 'cheapest') ? 'cheapest' : undefined;
  if (rank) topics.add('prices');
  const reference = referenceIn(folded, lex);
  const bookIt = lex.has(folded, 'bookIt');
  let weakDetails = false;
  const informative = [...topics].filter((topic) => topic !== 'greeting' && topic !== 'thanks');
  if (!informative.length && !knowledge.length && !declined.length && lex.has(folded, 'weakDetails')) {
    topics.add('showDetails');
    weakDetails = true;
  }
  // A day and a party name a question of seats, whatever the words; so does booking for a party.
  if ((days || topics.has('howToBook')) && party && !topics.has('prices') && !topics.has('privateEvents')) topics.add('availability');
  // A day alone asks what is on then.
  let dayOnly = false;
  if (days && !topics.has('availability') && !topics.has('prices') && !topics.has('whatsOn') && knowledge.every((subject) => subject === 'children') && !declined.length && !topics.has('schedule')) {
    topics.add('schedule');
    dayOnly = true;
  }
  // The show a request names (read without the party's words: "adults" is in a summary, not a title).
  // Asking nothing, only a title names it — unless it opens as a follow-up does ("and the puppet one?", "còn cái
  // múa rối thì sao"): then a word of its summary is the show meant.
  const asksNothing = !topics.size && !knowledge.length;
  const opensFollowUp = lex.opens(folded, 'followUp');
  const show = shows?.length && !outside ? matchShow(unparty, shows, lex, (topics.has('whatsOn') && !weakDetails) || (asksNothing && !party && !days && !opensFollowUp) ? 10 : 2) : undefined;
  // A party for a show, and nothing asked: whether it can come, and what it costs.
  if (show && party && !topics.size && !knowledge.length) {
    topics.add('availability');
    topics.add('prices');
  }
  return { folded, topics: [...topics], knowledge, declined, refused, days, relativeDay, party, rank, weakDetails, dayOnly, reference, bookIt, show, best };
}

/** The text without the runs of two words or more it shares with a show's title or summary. */
function withoutNameOf(show: ShowFact, scored: string): string {
  const name = fold(`${show.title} ${show.slug.replace(/-/g, ' ')} ${show.summary ?? ''}`);
  const words = scored.trim().split(' ');
  const drop = new Set<number>();
  for (let i = 0; i < words.length - 1; i++) {
    if (name.includes(` ${words[i]} ${words[i + 1]} `)) {
      drop.add(i);
      drop.add(i + 1);
    }
  }
  return drop.size ? ` ${words.filter((_word, i) => !drop.has(i)).join(' ')} ` : scored;
}

/** "The earlier one", "the next one after that", "that one", "the 8pm" / "suất 20h". */
function referenceIn(folded: string, lex: Lexicon): Reference | undefined {
  if (lex.has(folded, 'refNext')) {
    const count = nextCount(folded, lex);
    return count ? { kind: 'next', count } : { kind: 'next' };
  }
  // "What are the next three?", "the next 2 shows": a count of the performances after those presented.
  const alone = nextCount(folded, lex, true);
  if (alone) return { kind: 'next', count: alone };
  if (lex.has(folded, 'refPrevious')) return { kind: 'previous' };
  if (lex.has(folded, 'refFirst')) return { kind: 'first' };
  if (lex.has(folded, 'refLast')) return { kind: 'last' };
  const time = new RegExp(` (?:${alternation(lex.list('timeLead'))}) (\\d{1,2})(?:[:.h](\\d{2}))? ?(${alternation(lex.list('timeUnits'))})? `).exec(folded);
  if (time && (time[2] || time[3])) {
    let hour = Number(time[1]);
    if (lex.list('afternoonUnits').includes(time[3] ?? '') && hour < 12) hour += 12;
    if (hour <= 23) return { kind: 'time', time: `${String(hour).padStart(2, '0')}:${time[2] ?? '00'}` };
  }
  if (lex.has(folded, 'refThat')) return { kind: 'that' };
  return undefined;
}

/**
 * How many performances "the next …" asks for, when more than one: a number before the phrase ("the two after
 * that", "2 suất tiếp theo", "two more after that") or after "next" ("the next three").
 */
function nextCount(folded: string, lex: Lexicon, leadOnly = false): number | undefined {
  const words = folded.trim().split(' ');
  const value = (word: string | undefined) => (word === undefined ? undefined : /^\d$/.test(word) ? Number(word) : lex.numbers.get(word));
  const fillers = new Set(lex.list('countFillers'));
  const plausible = (n: number | undefined) => (n !== undefined && n >= 2 && n <= 6 ? n : undefined);
  for (const phrase of leadOnly ? [] : lex.found(folded, 'refNext')) {
    for (const i of occurrences(words, phrase)) {
      let j = i - 1;
      while (j >= 0 && fillers.has(words[j])) j--;
      const before = plausible(value(words[j]));
      if (before) return before;
    }
  }
  for (const lead of lex.list('nextCountLead')) {
    const size = lead.split(' ').length;
    for (const i of occurrences(words, lead)) {
      const after = plausible(value(words[i + size]));
      // Alone, the count ends the request or names performances ("the next 2 shows"), not "the next 2 weeks".
      const then = words[i + size + 1];
      if (after && (!leadOnly || then === undefined || lex.has(` ${then} `, 'showWords'))) return after;
    }
  }
  return undefined;
}

/** Where a phrase of plain words starts among `words`, in order. */
function occurrences(words: readonly string[], phrase: string): number[] {
  const parts = phrase.split(' ');
  const at: number[] = [];
  for (let i = 0; i + parts.length <= words.length; i++) if (parts.every((part, j) => words[i + j] === part)) at.push(i);
  return at;
}

/**
 * The party: adults and children (with their ages) where the message says them — "2 adults 2 kids 6 and 9",
 * "4 người lớn 1 trẻ em", "me and my wife and our son (7)" —, else a number of guests ("for 4", "table for two",
 * "nhà mình 3 người"). Everyone counts.
 */
export function partyOf(folded: string, lex: Lexicon): Party | undefined {
  return readParty(folded, lex).party;
}

/** The party, and the words that said it (numbers with their people words: slot values, no intent's cues). */
function readParty(folded: string, lex: Lexicon): { party?: Party; used: Set<number> } {
  // "We're 4 adults, sorry 5": a party said again after a correction is the party.
  const said = folded.trim().split(' ');
  const corrected = Math.max(-1, ...lex.list('corrections').flatMap((phrase) => occurrences(said, phrase).map((at) => at + phrase.split(' ').length)));
  if (corrected > 0 && corrected < said.length) {
    const again = readParty(` ${said.slice(corrected).join(' ')} `, lex);
    if (again.party) return { party: again.party, used: new Set([...again.used].map((at) => at + corrected)) };
  }
  const used = new Set<number>();
  const use = (from: number, to: number) => {
    for (let k = from; k <= to; k++) used.add(k);
  };
  const words = folded.trim().split(' ');
  const number = (word: string | undefined): number | undefined => {
    if (word === undefined) return undefined;
    if (/^\d{1,3}$/.test(word)) return Number(word);
    return lex.numbers.get(word);
  };
  const startsAt = (list: readonly string[], at: number): string | undefined =>
    list
      .filter((phrase) => {
        const parts = phrase.replace(/\*$/, '').split(' ');
        return parts.every((part, j) => (phrase.endsWith('*') && j === parts.length - 1 ? words[at + j]?.startsWith(part) : words[at + j] === part));
      })
      .sort((a, b) => b.length - a.length)[0];
  let adults: number | undefined;
  let children: number | undefined;
  let guests: number | undefined;
  const ages: number[] = [];
  // Children counted by a word that also names grown friends ("5 girls"): guests, unless beside adults or ages.
  let grownIfAlone = 0;
  // A number word inside a person's or a pair's name is no number ("ông bà": "ba" is also three).
  const named = new Set<number>();
  for (const phrase of [...lex.list('personWords'), ...lex.list('pairWords')]) {
    const parts = phrase.split(' ');
    if (parts.length < 2 || !parts.some((part) => lex.numbers.has(part))) continue;
    for (const i of occurrences(words, phrase)) parts.forEach((part, j) => lex.numbers.has(part) && named.add(i + j));
  }
  const childWords = lex.list('childWords');
  const adultWords = lex.list('adultWords');
  const guestWords = lex.list('guestWords');
  const ageWords = lex.list('ageWords');
  for (let i = 0; i < words.length; i++) {
    if (used.has(i)) continue;
    // "6yo", "8t" (tuổi): an age in one word.
    const glued = words[i].match(/^(\d{1,2})([a-z]+)$/);
    if (glued && !lex.list('ageWords').includes(glued[2])) glued.length = 0;
    if (glued?.length) {
      ages.push(Number(glued[1]));
      use(i, i);
      continue;
    }
    const n = named.has(i) ? undefined : number(words[i]);
    if (n === undefined || n > 500) continue;
    const next = i + 1;
    // A number that is part of a day, a time or a place ("thứ 5", "quận 1") counts nobody, unless grown-ups follow it
    // ("so 3 adults": "so" is also Vietnamese "số", a number; "thứ 5 còn vé" is no five children).
    if (i > 0 && lex.list('notPeopleAfter').includes(words[i - 1]) && !startsAt(adultWords, next)) continue;
    const age = startsAt(ageWords, next);
    if (age && n <= 17) {
      ages.push(n);
      use(i, next + age.split(' ').length - 1);
      i = next + age.split(' ').length - 1;
      continue;
    }
    const child = startsAt(childWords, next);
    if (child) {
      children = (children ?? 0) + n;
      if (lex.list('grownIfAlone').includes(child)) grownIfAlone += n;
      use(i, next + child.split(' ').length - 1);
      i = next + child.split(' ').length - 1;
      // "2 kids 6 and 9", "2 kids (6, 9)": the ages that follow.
      const following: number[] = [];
      for (let j = i + 1; j < words.length && following.length < n; j++) {
        const value = number(words[j]);
        if (value !== undefined && value <= 17) following.push(value);
        else if (value === undefined && !startsAt(lex.list('joiners'), j)) break;
      }
      if (following.length) {
        ages.push(...following);
        let seen = 0;
        let j = i + 1;
        for (; j < words.length && seen < following.length; j++) {
          used.add(j);
          if (number(words[j]) !== undefined) seen++;
        }
        const unit = startsAt(ageWords, j);
        if (unit) for (let k = 0; k < unit.split(' ').length; k++) used.add(j + k);
      }
      continue;
    }
    const adult = startsAt(adultWords, next);
    if (adult) {
      adults = (adults ?? 0) + n;
      use(i, next + adult.split(' ').length - 1);
      i = next + adult.split(' ').length - 1;
      continue;
    }
    // "Two couples": two people each.
    const pair = startsAt(lex.list('pairWords'), next);
    if (pair) {
      adults = (adults ?? 0) + 2 * n;
      use(i, next + pair.split(' ').length - 1);
      i = next + pair.split(' ').length - 1;
      continue;
    }
    const guest = startsAt(guestWords, next);
    if (guest) {
      if (guests === undefined) guests = n;
      use(i, next + guest.split(' ').length - 1);
      continue;
    }
  }
  // "Our twins (10)": two children of that age.
  if (children === undefined) {
    const twins = words.findIndex((_word, i) => startsAt(lex.list('twinWords'), i));
    if (twins >= 0) {
      children = 2;
      const end = twins + startsAt(lex.list('twinWords'), twins)!.split(' ').length;
      use(twins, end - 1);
      const age = number(words[end]);
      if (age !== undefined && age <= 17) {
        ages.push(age, age);
        use(end, end);
      }
    }
  }
  // "The kids aged 4 and 7", "kids 6 and 9": the ages after a child word without a count.
  if (children === undefined && !ages.length) {
    for (let i = 0; i < words.length && !ages.length; i++) {
      const child = used.has(i) ? undefined : startsAt(childWords, i);
      if (!child || number(words[i - 1]) !== undefined) continue;
      const found: number[] = [];
      const start = i + child.split(' ').length;
      let j = start;
      for (; j < words.length; j++) {
        const value = number(words[j]);
        if (value !== undefined && value <= 17) found.push(value);
        else if (value !== undefined || !(startsAt(lex.list('joiners'), j) || startsAt(ageWords, j))) break;
      }
      // Ages, not a count of people: introduced ("aged 4"), several ("6 and 9"), or followed by an age word;
      // never a number of guests ("còn 3 người": "còn" folds to "con", a child).
      const introduced = number(words[start]) === undefined;
      const people = [guestWords, adultWords, childWords].some((list) => startsAt(list, j));
      if (found.length && !people && (introduced || found.length >= 2 || startsAt(ageWords, j))) {
        ages.push(...found);
        use(i, j - 1);
      }
    }
  }
  // "My nephew is 17", "she is 10": an age said of a person (a child, at 17 and under).
  for (const lead of lex.list('ageLead')) {
    const size = lead.split(' ').length;
    for (const i of occurrences(words, lead)) {
      const at = i + size;
      const age = used.has(at) ? undefined : number(words[at]);
      if (age === undefined || age > 17 || age < 1 || lex.list('notPeople').includes(words[at + 1] ?? '')) continue;
      ages.push(age);
      use(at, at);
    }
  }
  // "a kid", "my son", "con trai 5 tuổi": one child, when no count is given.
  if (children === undefined && ages.length) children = ages.length;
  if (children === undefined) {
    const single = words.findIndex((_word, i) => startsAt(lex.list('oneWords'), i) && startsAt(lex.list('oneChild'), i + 1));
    if (single >= 0) {
      children = 1;
      const word = startsAt(lex.list('oneChild'), single + 1)!;
      const end = single + word.split(' ').length;
      use(single, end);
      // "our son (9)", "a kid of 7": the age beside.
      const at = startsAt(lex.list('joiners'), end + 1) ? end + 2 : end + 1;
      const age = number(words[at]);
      if (age !== undefined && age <= 17 && !ages.length) {
        ages.push(age);
        use(end + 1, at);
      }
    }
  }
  // "Me and my wife", "nhà mình" with a number: the party the guest names.
  if (adults === undefined && guests === undefined && lex.has(folded, 'couple')) adults = 2;
  // "Me + my husband + our son", "grandma grandpa me my wife and 3 kids": each person named counts, when the
  // message names a party at all (children, or two people or more).
  if (adults === undefined && guests === undefined) {
    // A person counts one, a pair ("my parents", "bố mẹ") two; the longest phrase claims its words.
    const named = [...lex.list('personWords').map((phrase) => ({ phrase, count: 1 })), ...lex.list('pairWords').map((phrase) => ({ phrase, count: 2 }))].sort(
      (a, b) => b.phrase.split(' ').length - a.phrase.split(' ').length,
    );
    const taken = new Set<number>();
    // A person's word inside another phrase is nobody ("tối mai": tối folds to tôi; "bên mình": the venue's side).
    for (const phrase of lex.list('notPersons')) for (const i of occurrences(words, phrase)) phrase.split(' ').forEach((_part, j) => taken.add(i + j));
    let people = 0;
    // The guest is one person however often they say "I" ("cho em hỏi … em muốn đặt cho em và chồng": two).
    const self = new Set(lex.list('selfWords'));
    let selfCounted = false;
    for (const { phrase, count } of named) {
      const size = phrase.split(' ').length;
      for (const i of occurrences(words, phrase)) {
        if ([...Array(size).keys()].some((k) => taken.has(i + k))) continue;
        for (let k = 0; k < size; k++) taken.add(i + k);
        if (self.has(phrase)) {
          if (selfCounted) continue;
          selfCounted = true;
        }
        people += count;
      }
    }
    if (people >= 2 || (people >= 1 && children !== undefined)) adults = people;
  }
  if (adults === undefined && guests === undefined) {
    // "for 4", "party of six", "table for two", "we are 5", "nhóm 6" (a number not followed by a time, a month, an
    // age, or children: "for 5 with 2 kids" is five, "for 2 kids" no count of its own).
    const leads = new RegExp(` (?:${alternation(lex.list('partyLead'))}) (\\d{1,3}|[a-z]+)(?= (?!(?:${alternation([...lex.list('notPeople'), ...lex.list('childWords')])}) ))`, 'g');
    for (const lead of (folded + ' ').matchAll(leads)) {
      const value = number(lead[1]);
      if (value !== undefined && value > 0 && value <= 500) {
        guests = value;
        break;
      }
    }
    // A count that opens the message before "for" ("2 for <show> dinner, how much").
    const opening = number(words[0]);
    if (guests === undefined && opening !== undefined && opening > 0 && opening <= 60 && lex.list('countOpeners').includes(words[1] ?? '')) {
      guests = opening;
      use(0, 1);
    }
  }
  if (children !== undefined && children === grownIfAlone && adults === undefined && !ages.length) {
    guests = children;
    children = undefined;
  }
  // "Just for me", "đi một mình": a party of one.
  if (adults === undefined && guests === undefined && children === undefined && lex.has(folded, 'solo')) guests = 1;
  if (adults === undefined && guests === undefined && children === undefined) return { used };
  // "For 5 with 2 kids": five in all; "3 of us plus 2 kids": five too, the children added.
  const added = guests !== undefined && children !== undefined && lex.has(folded, 'plusWords');
  const total = adults !== undefined || children !== undefined ? (adults ?? (guests !== undefined && children !== undefined && guests > children && !added ? guests - children : guests ?? 0)) + (children ?? 0) : guests!;
  if (!total || total > 500) return { used };
  return { used, party: { guests: total, ...(adults !== undefined ? { adults } : {}), ...(children !== undefined ? { children } : {}), ...(ages.length ? { childAges: ages } : {}) } };
}

/**
 * The message's party from its requests' parties: the first, completed by children a later part names when it
 * named none ("giá cho 2 vợ chồng + bé 4 tuổi": two adults, then a child of four).
 */
function partyOfMessage(parties: Party[]): Party | undefined {
  const [first, ...rest] = parties;
  if (!first || first.children !== undefined) return first;
  const kids = rest.find((party) => party.children !== undefined && party.adults === undefined && party.guests === party.children);
  if (!kids) return first;
  const adults = first.adults ?? first.guests;
  return { guests: adults + kids.children!, adults, children: kids.children, ...(kids.childAges ? { childAges: kids.childAges } : {}) };
}

/** A count said again after a word that restates it ("so 4", "meant 5", "we do 10 only", "đổi thành 6"), not a time, a day or an age. */
function restatedCount(folded: string, lex: Lexicon): number | undefined {
  const words = folded.trim().split(' ');
  const after = new Set([...lex.list('notPeople'), ...lex.list('ageWords'), ...lex.list('childWords')]);
  for (const phrase of lex.list('partyRestate')) {
    const size = phrase.split(' ').length;
    for (const i of occurrences(words, phrase)) {
      const word = words[i + size];
      const value = word === undefined ? undefined : /^\d{1,2}$/.test(word) ? Number(word) : lex.numbers.get(word);
      const next = words[i + size + 1];
      if (value !== undefined && value >= 1 && value <= 60 && (next === undefined || !after.has(next))) return value;
    }
  }
  return undefined;
}

/** A regex alternation of folded phrases (longest first). */
function alternation(phrases: readonly string[]): string {
  return [...phrases].sort((a, b) => b.length - a.length).map((phrase) => phrase.replace(/\*$/, '').replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|') || '(?!)';
}

/** The language a guest's message is clearly written in (as `understand` reads it), or undefined: the site's then. */
export function messageLanguage(text: string, lex: Lexicon = lexicon()): 'en' | 'vi' | undefined {
  return clearLanguage(text, normalise(text, lex), lex);
}

/** The language a message is clearly written in: most of its words one language's, or a letter only Vietnamese writes. */
export function clearLanguage(text: string, folded: string, lex: Lexicon): 'en' | 'vi' | undefined {
  const counts = lex.languageCounts(folded);
  const en = counts.get('en') ?? 0;
  // Letters only Vietnamese writes count for it.
  const vi = (counts.get('vi') ?? 0) + (languageOf(text) === 'vi' && /[^\x00-\x7f]/.test(text) ? 2 : 0);
  if (vi >= 2 && vi >= 2 * en) return 'vi';
  if (en >= 2 && en >= 2 * vi) return 'en';
  return undefined;
}
