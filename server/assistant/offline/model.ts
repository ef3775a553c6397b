import { randomUUID } from 'node:crypto';
import type {
  LanguageModelV3,
  LanguageModelV3CallOptions,
  LanguageModelV3Content,
  LanguageModelV3GenerateResult,
  LanguageModelV3Prompt,
  LanguageModelV3StreamPart,
  LanguageModelV3StreamResult,
  LanguageModelV3Usage,
} from '@ai-sdk/provider';
import { DateTime } from 'luxon';
import { bookingStopped, readEvents, readKnowledge, readOffers, readRoutes, readShows, type EventFact, type ShowFact } from '../facts.ts';
import type { ToolName } from '../tools.ts';
import { ageBlocked, composeAnswer } from './compose.ts';
import type { Lang } from './format.ts';
import { fold } from './text.ts';
import { understand, type KnowledgeSubject, type Party, type Topic, type Understanding } from './understand.ts';
import { PHRASES } from './phrases.ts';
import { isoDayLabel } from './format.ts';
import { lexicon } from '../language/lexicon.ts';

/**
 * The grounded offline model: our own implementation of the AI SDK's language-model interface (v3, what `ai` 6
 * drives), so the agent runs unchanged without a provider. Like a tool-calling model it works in steps, each a
 * fresh call with the whole conversation and the tool results so far:
 *   1. understand the guest's last message (topics, days, party size) and fetch the site's routes and shows
 *      (plus the knowledge base when a policy is asked);
 *   2. with the shows known, resolve which show is meant (also from the conversation) and fetch what the
 *      topics need (events, availability on the day, booking options);
 *   3. write a short answer from those results only, with their links; or say it does not know and link the
 *      inquiry page.
 * Nothing it states comes from anywhere but the tool results.
 */
export interface OfflineModelOptions {
  /** The venue's IANA time zone: what "tomorrow" and "Saturday" mean, and how times are written. */
  timezone: string;
  /** Answer language when the call names none (providerOptions.offline.locale). */
  defaultLocale: string;
  now?: () => Date;
}

/** Per-call options, passed by the agent as `providerOptions: { offline: { locale, channel } }`. */
export interface OfflineCallOptions {
  locale?: string;
  /** `web`/`demo` get Markdown links; chat platforms plain `label: url`. */
  markdown?: boolean;
}

type ToolCallPlan = { toolName: ToolName; input: Record<string, unknown> };
/** A step's outcome: tools to call (with, when streaming, a first sentence the guest reads meanwhile) or the answer. */
type Decision = { kind: 'tools'; calls: ToolCallPlan[]; lead?: string } | { kind: 'text'; text: string };

interface Conversation {
  userTexts: string[];
  assistantTexts: string[];
  /** The assistant's text after each guest message (index = the guest message's). */
  turnTexts: string[];
  /** Tool results since the guest's last message, by tool name (every call's, in order). */
  results: Map<string, Array<{ value: unknown; failed: boolean }>>;
  /**
   * The tool calls of each earlier turn (one list per guest message before the last), from the history the
   * client sent back (the UI stream's tool parts): what the conversation was about — a show, a day, a party.
   * Only their inputs are read: their outputs came back from the client and are not facts.
   */
  turnCalls: Array<Array<{ toolName: string; input: Record<string, unknown> }>>;
}

const STEP_ONE: ToolName[] = ['getSiteRoutes', 'listShows'];

export class OfflineModel implements LanguageModelV3 {
  readonly specificationVersion = 'v3' as const;
  readonly provider = 'venue.offline';
  readonly modelId = 'grounded-offline';
  readonly supportedUrls = {};

  constructor(private readonly options: OfflineModelOptions) {}

  async doGenerate(options: LanguageModelV3CallOptions): Promise<LanguageModelV3GenerateResult> {
    const decision = this.decide(options);
    const content: LanguageModelV3Content[] =
      decision.kind === 'text'
        ? [{ type: 'text', text: decision.text }]
        : decision.calls.map((call) => ({ type: 'tool-call', toolCallId: callId(), toolName: call.toolName, input: JSON.stringify(call.input) }));
    return {
      content,
      finishReason: decision.kind === 'text' ? { unified: 'stop', raw: 'stop' } : { unified: 'tool-calls', raw: 'tool_calls' },
      usage: usage(options.prompt, decision),
      warnings: [],
      response: { id: callId(), modelId: this.modelId, timestamp: new Date() },
    };
  }

  async doStream(options: LanguageModelV3CallOptions): Promise<LanguageModelV3StreamResult> {
    const decision = this.decide(options);
    const parts: LanguageModelV3StreamPart[] = [{ type: 'stream-start', warnings: [] }, { type: 'response-metadata', id: callId(), modelId: this.modelId, timestamp: new Date() }];
    if (decision.kind === 'text') {
      const id = callId();
      parts.push({ type: 'text-start', id });
      // Word by word, as a provider streams: the client renders the answer as it arrives.
      for (const delta of decision.text.match(/\S+\s*|\s+/g) ?? []) parts.push({ type: 'text-delta', id, delta });
      parts.push({ type: 'text-end', id });
    } else {
      if (decision.lead) {
        // What is being looked up, while it is: the guest reads it before the tools have answered.
        const id = callId();
        parts.push({ type: 'text-start', id }, { type: 'text-delta', id, delta: `${decision.lead}\n\n` }, { type: 'text-end', id });
      }
      for (const call of decision.calls) parts.push({ type: 'tool-call', toolCallId: callId(), toolName: call.toolName, input: JSON.stringify(call.input) });
    }
    parts.push({
      type: 'finish',
      finishReason: decision.kind === 'text' ? { unified: 'stop', raw: 'stop' } : { unified: 'tool-calls', raw: 'tool_calls' },
      usage: usage(options.prompt, decision),
    });
    const signal = options.abortSignal;
    const stream = new ReadableStream<LanguageModelV3StreamPart>({
      pull(controller) {
        if (signal?.aborted) {
          controller.error(signal.reason ?? new DOMException('aborted', 'AbortError'));
          return;
        }
        const part = parts.shift();
        if (part) controller.enqueue(part);
        else controller.close();
      },
    });
    return { stream };
  }

  /**
   * The turn understood once (issue 35 §5): each step of a turn is a fresh call with the same conversation, so the
   * understanding is kept by the conversation's texts, its earlier tool inputs, the programme and the day.
   */
  private readonly understandings = new Map<string, Understanding>();

  private understood(conversation: Conversation, now: Date, zone: string, shows: ShowFact[]): Understanding {
    const key = JSON.stringify([conversation.userTexts, conversation.turnCalls, shows.map((show) => show.slug), zone, DateTime.fromJSDate(now, { zone }).toISODate()]);
    let understanding = this.understandings.get(key);
    if (!understanding) {
      understanding = understandInContext(conversation, conversation.userTexts.length - 1, now, zone, shows);
      this.understandings.set(key, understanding);
      if (this.understandings.size > 256) this.understandings.delete(this.understandings.keys().next().value!);
    }
    return structuredClone(understanding);
  }

  /** One step: the tools to call next, or the answer. */
  decide(options: LanguageModelV3CallOptions): Decision {
    const call = (options.providerOptions?.offline ?? {}) as OfflineCallOptions;
    const siteLang: Lang = (call.locale ?? this.options.defaultLocale).toLowerCase().startsWith('vi') ? 'vi' : 'en';
    const markdown = call.markdown ?? true;
    const available = new Set((options.tools ?? []).map((tool) => tool.name));
    const conversation = readConversation(options.prompt);
    const now = this.options.now?.() ?? new Date();
    const zone = this.options.timezone;
    const { results } = conversation;
    // The programme, once listed: the show a message names is part of understanding it.
    const shows = readShows(results.get('listShows')?.[0]?.value);
    const asked = this.understood(conversation, now, zone, shows);
    // The answer's language: the site's, unless the message is clearly written in the other.
    const lang: Lang = asked.language ?? siteLang;
    const p = PHRASES[lang];

    // Attempts on the rules are refused, and questions outside the venue declined, before any tool is called:
    // nothing in them is looked up.
    // Another's booking asked as if one's own ("check my booking under name Lan"): looked up for no one, and where one's own is.
    if (asked.refusal) return { kind: 'text', text: asked.refusal === 'socialEngineering' && asked.ownBookingAsked ? `${p.refuse}\n\n${p.ownBooking(p.inquiryPage)}` : p.refuse };
    // Declined whole only when every request is outside the venue (or says nothing more than hello).
    const ownContent = asked.requests.filter((request) => !request.declined.length && (informative(request.topics).length || request.knowledge.length || request.party || request.days || request.show || request.folded.trim().split(' ').length > 3));
    if (asked.outOfScope && ownContent.length === 0 && informative(asked.topics).length === 0 && asked.knowledge.length === 0) return { kind: 'text', text: p.outOfScope };

    const wantsKnowledge = asked.knowledge.length > 0 || asked.topics.some((topic) => topic === 'policy' || topic === 'contact' || topic === 'privateEvents') || informative(asked.topics).length === 0;
    if (!STEP_ONE.every((name) => results.has(name)) && STEP_ONE.every((name) => available.has(name))) {
      const calls: ToolCallPlan[] = STEP_ONE.map((toolName) => ({ toolName, input: {} }));
      if (wantsKnowledge && available.has('searchKnowledge')) {
        // One search per practical subject, worded as the documents are tagged; else the question itself.
        const searches = asked.knowledge.length ? asked.knowledge.slice(0, 3).map((subject) => subjectTags(subject).join(' ')) : informative(asked.topics).length + (asked.folded.trim().length > 12 ? 1 : 0) > 0 ? [asked.searchText.trim().slice(0, 500)] : [];
        for (const search of searches) calls.push({ toolName: 'searchKnowledge', input: { question: search } });
      }
      // A bare greeting or thanks needs no facts at all.
      if (informative(asked.topics).length === 0 && asked.knowledge.length === 0 && (asked.topics.includes('greeting') || asked.topics.includes('thanks')) && asked.folded.trim().split(' ').length <= 6) {
        return { kind: 'text', text: composeAnswer(baseInput(lang, zone, now, markdown, asked, [], results)) };
      }
      return { kind: 'tools', calls, lead: asked.vague ? undefined : leadFor(asked, lang) };
    }

    // Too vague to answer, unless it names a show (a title alone, "and <title>?"): ask what is meant.
    if (asked.vague && !asked.show && !asked.days && asked.guests === undefined && asked.relativeDay === undefined) {
      // A clearly matching published document still answers it ("cloakroom?"); else the clarifying question.
      return { kind: 'text', text: composeAnswer(baseInput(lang, zone, now, markdown, { ...asked, topics: [], knowledge: [] }, shows, results)) };
    }
    const show = resolveShow(conversation, shows, asked);
    // A show named and nothing else asked (its title alone): its details.
    if (show && informative(asked.topics).length === 0 && asked.knowledge.length === 0 && asked.show === show) {
      asked.topics = [...asked.topics, 'showDetails'];
      asked.vague = false;
    }
    const today = DateTime.fromJSDate(now, { zone }).startOf('day');
    const upcoming = readEvents(results.get('listShows')?.[0]?.value, zone);
    // "The earlier one", "the next one after that", "the 8pm", "ok book it": the performance the conversation
    // presented, resolved against the show's performances (looked up again: the client's copy is no fact).
    const index = conversation.userTexts.length - 1;
    // In one message too, when it names the day referred from ("not this Friday: the one after that?").
    // With no show named or carried, "the earlier one" after one day's performances of several shows: among them all.
    const dayShown = !show && index > 0 && asked.reference && ['first', 'last', 'time'].includes(asked.reference.kind) ? dayPresented(conversation, index - 1, now, zone, shows) : undefined;
    if ((asked.reference || asked.bookIt) && (show || dayShown) && (index > 0 || (asked.days && asked.reference?.kind === 'next')) && available.has('listEvents')) {
      const window = show ? { show: show.slug, from: iso(today), to: iso(today.plus({ days: 60 })) } : { from: dayShown!, to: dayShown! };
      const listed = (results.get('listEvents') ?? []).filter((result) => !result.failed);
      if (!listed.length) return { kind: 'tools', calls: [{ toolName: 'listEvents', input: window }] };
      const all = listed.flatMap((result) => readEvents(result.value, zone)).filter((event) => !show || event.showSlug === show.slug || !event.showSlug);
      all.sort((a, b) => `${a.date} ${a.time}`.localeCompare(`${b.date} ${b.time}`));
      // "Book it for next Saturday": the show's performances that day, not the one presented before.
      const onDays = asked.days && (!asked.reference || asked.reference.kind !== 'next') && asked.reference?.kind !== 'previous' ? all.filter((event) => event.date >= asked.days!.from && event.date <= asked.days!.to) : [];
      const named = index === 0 && asked.days ? all.filter((event) => event.date >= asked.days!.from && event.date <= asked.days!.to) : [];
      const base = onDays.length ? onDays : named.length ? named : presented(conversation, index - 1, all, now, zone, shows, 0, asked.reference?.kind === 'next');
      const focus = refer(asked, base, all);
      const about = show ?? shows.find((candidate) => candidate.slug === focus?.showSlug);
      if (focus && about) {
        // Its seats for the party, and its options' prices (with the party's total) when a price is asked.
        const calls: ToolCallPlan[] = [];
        if (asked.guests && available.has('checkAvailability') && !results.has('checkAvailability')) calls.push({ toolName: 'checkAvailability', input: { date: focus.date, show: about.slug, guests: asked.guests } });
        if (asked.topics.includes('prices') && available.has('getBookingOptions') && !results.has('getBookingOptions')) calls.push({ toolName: 'getBookingOptions', input: { event: focus.key, ...(asked.guests ? { guests: asked.guests } : {}) } });
        if (calls.length) return { kind: 'tools', calls };
        const input = baseInput(lang, zone, now, markdown, asked, shows, results);
        input.show = about;
        // "The two after that": as many as asked, in order.
        const count = asked.reference?.kind === 'next' ? (asked.reference.count ?? 1) : 1;
        input.focus = count > 1 ? all.slice(all.indexOf(focus), all.indexOf(focus) + count) : [focus];
        // "Book that" when that one can no longer be booked (sold out, closed): the next one that can, beside it.
        if (asked.bookIt && count === 1 && bookingStopped(input.availability?.find((event) => event.key === focus.key) ?? focus)) {
          const instead = all.find((event) => `${event.date} ${event.time}` > `${focus.date} ${focus.time}` && event.bookingUrl && !bookingStopped(event));
          if (instead) input.focus.push(instead);
        }
        return { kind: 'text', text: composeAnswer(input) };
      }
    }

    const stepTwo = planStepTwo(asked, show, shows, upcoming, today).filter((planned) => available.has(planned.toolName));
    if (stepTwo.length && !stepTwo.some((planned) => results.has(planned.toolName))) return { kind: 'tools', calls: stepTwo };

    const input = baseInput(lang, zone, now, markdown, asked, shows, results);
    input.show = show;
    return { kind: 'text', text: composeAnswer(input) };
  }
}

const callId = () => randomUUID().replace(/-/g, '').slice(0, 24);
const iso = (day: DateTime) => day.toISODate()!;

/**
 * The performances turn `index` presented, of the show's (`all`, in order): the one a reference of that turn
 * resolved to; the days it asked about; the day its tools looked at; else the show's next performance.
 */
function presented(conversation: Conversation, index: number, all: EventFact[], now: Date, zone: string, shows: ShowFact[], depth: number, forNext = false): EventFact[] {
  const found = presentedBy(conversation, index, all, now, zone, shows, depth, forNext);
  if (found) return found;
  // Nothing in particular presented ("when's the next one?" answered with a list): the next that can be booked.
  const next = all.find((event) => !bookingStopped(event)) ?? all[0];
  return next ? [next] : [];
}

/** `presented`, or undefined when turn `index` (and the turns before it) presented nothing in particular. */
function presentedBy(conversation: Conversation, index: number, all: EventFact[], now: Date, zone: string, shows: ShowFact[], depth: number, forNext = false): EventFact[] | undefined {
  if (index < 0 || depth > 4) return undefined;
  const asked = understandInContext(conversation, index, now, zone, shows);
  if (asked.reference || asked.bookIt) {
    const focus = refer(asked, presented(conversation, index - 1, all, now, zone, shows, depth + 1), all);
    if (focus) return [focus];
  }
  if (asked.days) {
    const within = all.filter((event) => event.date >= asked.days!.from && event.date <= asked.days!.to);
    if (within.length) return within;
    // Nothing on the days asked, then "when's the next one?": the next after them (counted from the last before).
    if (forNext) return all.filter((event) => event.date <= asked.days!.to).slice(-1);
  }
  const context = contextOf(conversation.turnCalls[index]);
  if (context.date) {
    const onDay = all.filter((event) => event.date === context.date);
    if (onDay.length) return onDay;
  }
  // A turn that named no day ("and how much is <show>?" after Friday's programme) still discusses the
  // performances presented before it, not the next one its prices were looked up for.
  if (!asked.days && !context.date) {
    const before = presentedBy(conversation, index - 1, all, now, zone, shows, depth + 1);
    if (before) return before;
  }
  if (context.event) {
    const event = all.find((candidate) => candidate.key === context.event);
    if (event) return [event];
  }
  return undefined;
}

/** The one day turn `index` presented performances of (its day asked, or the day its tools looked at). */
function dayPresented(conversation: Conversation, index: number, now: Date, zone: string, shows: ShowFact[]): string | undefined {
  const asked = understandInContext(conversation, index, now, zone, shows);
  if (asked.days && asked.days.from === asked.days.to) return asked.days.from;
  return contextOf(conversation.turnCalls[index]).date;
}

/** The performance a reference means, of those presented (`base`) and all the show's (`all`, in order). */
function refer(asked: Understanding, base: EventFact[], all: EventFact[]): EventFact | undefined {
  const at = (event: EventFact) => `${event.date} ${event.time}`;
  const reference = asked.reference;
  if (!reference || reference.kind === 'that') return base[0];
  switch (reference.kind) {
    case 'first':
      return base[0];
    case 'last':
      return base.at(-1);
    case 'next': {
      const last = base.at(-1);
      return last ? all.find((event) => at(event) > at(last)) : all[0];
    }
    case 'previous': {
      const first = base[0];
      return first ? [...all].reverse().find((event) => at(event) < at(first)) : undefined;
    }
    case 'time': {
      // "The 7.30 one" with nothing at 07:30: the same time in the evening.
      const hour = Number(reference.time.slice(0, 2));
      const times = hour < 12 ? [reference.time, `${String(hour + 12).padStart(2, '0')}${reference.time.slice(2)}`] : [reference.time];
      const days = new Set(base.map((event) => event.date));
      for (const time of times) {
        // "Dec 8 at 7:30pm": the day the message names; else the days presented.
        const named = asked.days ? all.filter((event) => event.date >= asked.days!.from && event.date <= asked.days!.to && event.time === time) : [];
        if (named.length) return named[0];
        const found = all.find((event) => days.has(event.date) && event.time === time) ?? all.find((event) => event.time === time);
        if (found) return found;
      }
      return undefined;
    }
  }
}

function informative(topics: Topic[]): Topic[] {
  return topics.filter((topic) => topic !== 'greeting' && topic !== 'thanks');
}

/** The document tags each practical subject is found by (the searchKnowledge query for it): intents.yaml's `tags`. */
export function subjectTags(subject: KnowledgeSubject): string[] {
  const tags = lexicon().info(subject)?.tags;
  return tags?.length ? tags : [subject];
}

/** The first sentence of a live lookup (seats, dates, prices), said while the tools run. */
function leadFor(asked: Understanding, lang: Lang): string | undefined {
  const topics = new Set(informative(asked.topics));
  const p = PHRASES[lang];
  const when = asked.days ? (asked.days.from === asked.days.to ? isoDayLabel(asked.days.from, lang) : `${isoDayLabel(asked.days.from, lang)} – ${isoDayLabel(asked.days.to, lang)}`) : undefined;
  if (topics.has('availability')) return p.leadSeats(when, asked.guests);
  if (topics.has('prices')) return p.leadPrices(asked.guests);
  if (topics.has('schedule') || topics.has('whatsOn')) return p.leadSchedule(when);
  return undefined;
}

function baseInput(lang: Lang, zone: string, now: Date, markdown: boolean, asked: Understanding, shows: ShowFact[], results: Conversation['results']) {
  const failed = [...results.values()].some((list) => list.some((result) => result.failed));
  const values = (name: ToolName) => (results.get(name) ?? []).filter((result) => !result.failed).map((result) => result.value);
  const called = (name: ToolName) => results.has(name);
  const offers = values('getBookingOptions').flatMap((value) => readOffers(value));
  const seen = new Set<string>();
  const knowledgeSeen = new Set<string>();
  return {
    lang,
    zone,
    now,
    markdown,
    topics: asked.topics,
    knowledgeSubjects: asked.knowledge,
    subjectTags: Object.fromEntries(asked.knowledge.map((subject) => [subject, subjectTags(subject)])),
    searchText: asked.searchText,
    wantsDuration: asked.wantsDuration,
    wantsIncludes: asked.wantsIncludes,
    party: asked.party,
    declined: asked.declined,
    rank: asked.rank,
    outOfScope: asked.outOfScope,
    vague: asked.vague,
    weakDetails: asked.weakDetails,
    days: asked.days,
    guests: asked.guests,
    shows,
    show: undefined as ShowFact | undefined,
    focus: undefined as EventFact[] | undefined,
    // Without a listEvents answer, the shows' next dates still say when they play.
    events: called('listEvents') ? values('listEvents').flatMap((value) => readEvents(value, zone)) : called('listShows') && shows.length ? readEvents(values('listShows')[0], zone) : undefined,
    availability: values('checkAvailability').length ? values('checkAvailability').flatMap((value) => readEvents(value, zone)) : undefined,
    offers: called('getBookingOptions')
      ? offers.filter((offer) => {
          const key = `${offer.showSlug ?? ''}|${offer.code ?? offer.name}`;
          if (seen.has(key)) return false;
          seen.add(key);
          return true;
        })
      : undefined,
    knowledge: called('searchKnowledge')
      ? values('searchKnowledge')
          .flatMap((value) => readKnowledge(value))
          .filter((document) => {
            const key = document.id ?? document.title;
            if (knowledgeSeen.has(key)) return false;
            knowledgeSeen.add(key);
            return true;
          })
      : undefined,
    routes: readRoutes(values('getSiteRoutes')[0]),
    failed,
  };
}

/** The step-two calls the topics need (nothing when the routes, shows and knowledge already answer). */
function planStepTwo(asked: Understanding, show: ShowFact | undefined, shows: ShowFact[], upcoming: EventFact[], today: DateTime): ToolCallPlan[] {
  const topics = new Set(asked.topics);
  const calls: ToolCallPlan[] = [];
  const iso = (day: DateTime) => day.toISODate()!;
  const days = asked.days;
  const singleDay = days && days.from === days.to ? days.from : undefined;
  if (['whatsOn', 'schedule', 'availability', 'howToBook', 'showDetails'].some((topic) => topics.has(topic as Topic))) {
    const from = days ? days.from : iso(today);
    // Past the days asked (at most the endpoint's 120 days), so that "nothing that day" can name the next ones.
    const limit = DateTime.fromISO(from).plus({ days: 119 });
    const wanted = days ? DateTime.fromISO(days.to).plus({ days: 14 }) : today.plus({ days: show ? 45 : 13 });
    const to = iso(wanted < limit ? wanted : limit);
    const narrow = show && !(topics.has('whatsOn') && !topics.has('showDetails'));
    calls.push({ toolName: 'listEvents', input: { ...(narrow ? { show: show.slug } : {}), from, to } });
  }
  if (topics.has('availability') && singleDay) {
    calls.push({ toolName: 'checkAvailability', input: { date: singleDay, ...(show ? { show: show.slug } : {}), ...(asked.guests ? { guests: asked.guests } : {}) } });
  }
  if (topics.has('prices') || (topics.has('showDetails') && show) || asked.wantsIncludes || topics.has('privateEvents') || (topics.has('availability') && asked.guests)) {
    // Offers are sold per performance: ask for the one asked about (a day named), else the next bookable one of
    // each show concerned; with the party size, so that the answer can give the party's total.
    const concerned = show && (!topics.has('privateEvents') || asked.guests) ? [show] : topics.has('privateEvents') && !topics.has('prices') ? shows.slice(0, 1) : shows;
    for (const candidate of concerned) {
      const mine = upcoming.filter((event) => event.showSlug === candidate.slug);
      const onDay = singleDay ? mine.find((event) => event.date === singleDay && event.bookingUrl) : undefined;
      const next = onDay ?? mine.find((event) => event.bookingUrl) ?? mine[0];
      if (next) calls.push({ toolName: 'getBookingOptions', input: { event: next.key, ...(asked.guests ? { guests: asked.guests } : {}) } });
    }
  }
  return calls;
}

function readConversation(prompt: LanguageModelV3Prompt): Conversation {
  const conversation: Conversation = { userTexts: [], assistantTexts: [], turnTexts: [], results: new Map(), turnCalls: [] };
  let calls: Conversation['turnCalls'][number] = [];
  for (const message of prompt) {
    if (message.role === 'user') {
      if (conversation.userTexts.length) conversation.turnCalls.push(calls);
      calls = [];
      conversation.userTexts.push(message.content.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join('\n'));
      conversation.results = new Map();
    } else if (message.role === 'assistant') {
      const text = message.content.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join('\n');
      if (text) conversation.assistantTexts.push(text);
      if (text && conversation.userTexts.length) {
        const turn = conversation.userTexts.length - 1;
        conversation.turnTexts[turn] = [conversation.turnTexts[turn], text].filter(Boolean).join('\n');
      }
      for (const part of message.content) {
        if (part.type !== 'tool-call') continue;
        const input = typeof part.input === 'string' ? safeJson(part.input) : part.input;
        if (input && typeof input === 'object' && !Array.isArray(input)) calls.push({ toolName: part.toolName, input: input as Record<string, unknown> });
      }
    } else if (message.role === 'tool') {
      for (const part of message.content) {
        if (part.type !== 'tool-result') continue;
        const output = part.output;
        const failed = output.type === 'error-text' || output.type === 'error-json' || output.type === 'execution-denied';
        const value = output.type === 'json' || output.type === 'error-json' ? output.value : output.type === 'text' ? safeJson(output.value) : undefined;
        conversation.results.set(part.toolName, [...(conversation.results.get(part.toolName) ?? []), { value, failed }]);
      }
    }
  }
  return conversation;
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** What an earlier turn's tool calls were about: a show (or an event of it), a day, a party size. */
interface TurnContext {
  show?: string;
  event?: string;
  date?: string;
  guests?: number;
}

const SLUG = /^[a-z0-9][a-z0-9-]{0,119}$/;

function contextOf(calls: Conversation['turnCalls'][number] | undefined): TurnContext {
  const context: TurnContext = {};
  for (const { toolName, input } of calls ?? []) {
    const show = typeof input.show === 'string' && SLUG.test(input.show) ? input.show : undefined;
    const date = typeof input.date === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(input.date) ? input.date : undefined;
    const guests = typeof input.guests === 'number' && Number.isInteger(input.guests) && input.guests > 0 && input.guests <= 500 ? input.guests : undefined;
    if (toolName === 'checkAvailability') Object.assign(context, { ...(show ? { show } : {}), ...(date ? { date } : {}), ...(guests ? { guests } : {}) });
    if (toolName === 'listEvents' && show) context.show ??= show;
    if (toolName === 'listEvents' && typeof input.from === 'string' && input.from === input.to) context.date ??= input.from;
    if (toolName === 'getBookingOptions') {
      if (typeof input.event === 'string' && SLUG.test(input.event)) context.event ??= input.event;
      if (guests) context.guests ??= guests;
    }
  }
  // Options looked up for several performances (across the programme): no one of them was the turn's.
  if ((calls ?? []).filter((call) => call.toolName === 'getBookingOptions').length > 1) delete context.event;
  return context;
}

/**
 * The message `index` understood, completed from the conversation when it is a follow-up ("and the day after?",
 * "what about for 4?", "and <another title>?"): it inherits the earlier turn's topics, show, day and party size where
 * it names none, also from that turn's tool calls (the history's tool parts).
 */
function understandInContext(conversation: Conversation, index: number, now: Date, zone: string, shows: ShowFact[], depth = 0): Understanding {
  const texts = conversation.userTexts;
  const current = understand(texts[index] ?? '', now, zone, { shows });
  if (index < 1 || depth > 3 || current.refusal) return current;
  if (current.outOfScope && informative(current.topics).length === 0) return current;
  // "Great, thanks!", "hello again": a courtesy alone asks nothing of the conversation.
  if (current.topics.length > 0 && informative(current.topics).length === 0 && !current.knowledge.length && !current.party && !current.days && !current.show && !current.reference && !current.bookIt && current.restatedGuests === undefined) return current;
  const previous = understandInContext(conversation, index - 1, now, zone, shows, depth + 1);
  // The party a follow-up names changes the conversation's: people added, a part of it said again, a count restated.
  const changed = partyInConversation(previous.party, current);
  if (changed) {
    current.party = changed;
    current.guests = changed.guests;
  }
  // A party with children after a question of prices or seats is that question for them, not the children's rules.
  if (current.childrenInferred && informative(previous.topics).length) current.knowledge = current.knowledge.filter((subject) => subject !== 'children');
  const context = contextOf(conversation.turnCalls[index - 1]);
  // "The next one after that", "book it": about what the conversation was about, whatever else it asks.
  if ((current.reference || current.bookIt) && !current.show) {
    current.contextShow = context.show ?? context.event ?? previous.show?.slug ?? previous.contextShow;
    current.party ??= previous.party ?? (context.guests ? { guests: context.guests } : undefined);
    current.guests ??= current.party?.guests;
    current.previous = previous;
  }
  // A generic "what about …" is no question of its own, and a day alone asks nothing either.
  const mine = informative(current.topics).filter((topic) => !(topic === 'showDetails' && current.weakDetails) && !(topic === 'schedule' && current.dayOnly));
  const startsAsFollowUp = Boolean(current.opensFollowUp);
  const followUp =
    (mine.length === 0 && (startsAsFollowUp || current.days !== undefined || current.guests !== undefined || !current.vague)) ||
    current.relativeDay !== undefined ||
    (startsAsFollowUp && current.knowledge.length === 0 && mine.every((topic) => topic === 'schedule' || topic === 'showDetails' || topic === 'availability' || topic === 'whatsOn')) ||
    (mine.length === 1 && mine[0] === 'showDetails' && (current.days || current.guests));
  // The party stays the conversation's: "what can we see with her then?" after a child's age was given, "how much
  // for the whole family then?" after the family was described.
  if (!current.party && previous.party && mine.some((topic) => topic === 'whatsOn' || topic === 'availability' || topic === 'prices' || topic === 'schedule')) {
    current.party = previous.party;
    current.guests ??= previous.party.guests;
  }
  // "Giá bn?" after a day's seats: that day's prices (and the performance they are of), not the next one's.
  if (!current.days && previous.days && !current.show && !current.reference && !current.bookIt && mine.length > 0 && mine.every((topic) => topic === 'prices' || topic === 'availability' || topic === 'howToBook')) current.days = previous.days;
  // A question about the guest's own booking is answered once, not carried into the next turn.
  const before = informative(previous.topics).filter((topic) => topic !== 'ownBooking');
  if (!followUp || (before.length === 0 && previous.knowledge.length === 0) || (mine.length === 0 && current.knowledge.length > 0)) return current;

  const topics = new Set<Topic>([...current.topics.filter((topic) => !(topic === 'showDetails' && current.weakDetails)), ...before]);
  let days = current.days ?? previous.days;
  if (current.relativeDay !== undefined) {
    const base = previous.days?.from ?? context.date ?? firstDateIn(conversation.turnTexts[index - 1], now, zone);
    if (base) {
      const day = DateTime.fromISO(base, { zone }).plus({ days: current.relativeDay }).toISODate()!;
      days = { from: day, to: day, single: true };
      if (topics.has('whatsOn') && !topics.has('availability')) topics.add('schedule');
      // "And the day after?" after a list of dates: that one day's performances (and seats, when a party is known).
    }
  }
  const guests = current.guests ?? previous.guests ?? context.guests;
  if (current.days && topics.has('whatsOn') && !topics.has('availability')) topics.add('schedule');
  // "What about for 4?" after the dates of a show: whether those take four.
  if (current.guests !== undefined && !topics.has('prices') && (topics.has('schedule') || topics.has('whatsOn') || topics.has('showDetails'))) topics.add('availability');
  const party = current.party ?? previous.party ?? (context.guests ? { guests: context.guests } : undefined);
  return { ...current, topics: [...topics], knowledge: current.knowledge.length ? current.knowledge : previous.knowledge, days, guests, party, rank: current.rank ?? (mine.length ? undefined : previous.rank), contextShow: context.show ?? context.event ?? previous.contextShow ?? previous.show?.slug, followUp: true, previous };
}

/**
 * The conversation's party after a follow-up that names one, or undefined when it stays as the message says it:
 * people added ("grandma is coming too", "thêm 1 bé nữa") join it; a part said again replaces only that part ("so 3
 * adults" keeps the children, "2 bé chứ, 5 và 8 tuổi" the adults); a count said again ("so 4", "I meant 5") is everyone,
 * the children kept among them. Children named alone are the same grown-ups' children.
 */
function partyInConversation(before: Party | undefined, current: Understanding): Party | undefined {
  if (!before) return undefined;
  const grownBefore = before.adults ?? Math.max(0, before.guests - (before.children ?? 0));
  const make = (adults: number, children: number, ages: number[] | undefined): Party => ({
    guests: adults + children,
    adults,
    ...(children ? { children } : {}),
    ...(children && ages?.length ? { childAges: ages } : {}),
  });
  const now = current.party;
  if (!now) {
    const count = current.restatedGuests;
    if (count === undefined) return undefined;
    if (before.children && count > before.children) return make(count - before.children, before.children, before.childAges);
    return { guests: count };
  }
  const childrenOnly = now.children !== undefined && now.adults === undefined && now.guests === now.children;
  const adultsOnly = now.adults !== undefined && now.children === undefined;
  if (current.partyChange === 'add') {
    const adults = grownBefore + (now.adults ?? (now.children !== undefined ? Math.max(0, now.guests - now.children) : now.guests));
    const children = (before.children ?? 0) + (now.children ?? 0);
    return make(adults, children, [...(before.childAges ?? []), ...(now.childAges ?? [])]);
  }
  if (childrenOnly && grownBefore > 0) return make(grownBefore, now.children!, now.childAges);
  if (current.partyChange === 'restate') {
    if (adultsOnly && before.children) return make(now.adults!, before.children, before.childAges);
    if (now.adults === undefined && now.children === undefined && before.children && now.guests > before.children) return make(now.guests - before.children, before.children, before.childAges);
  }
  return undefined;
}

/** The first date an earlier answer names (`Sat 28 Nov`, `Thứ Bảy 28/11`): what "the day after" counts from. */
function firstDateIn(text: string | undefined, now: Date, zone: string): string | undefined {
  if (!text) return undefined;
  const today = DateTime.fromJSDate(now, { zone }).startOf('day');
  const months = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
  const en = text.match(/\b(\d{1,2}) (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)\b/);
  const vi = text.match(/\b(\d{2})\/(\d{2})\b/);
  const [day, month] = en ? [Number(en[1]), months.indexOf(en[2].toLowerCase()) + 1] : vi ? [Number(vi[1]), Number(vi[2])] : [0, 0];
  if (!day || !month) return undefined;
  let date = DateTime.fromObject({ year: today.year, month, day }, { zone });
  if (!date.isValid) return undefined;
  if (date < today) date = date.plus({ years: 1 });
  return date.toISODate()!;
}

/** The show the guest means: named in the last message, else the one the conversation was about. */
function resolveShow(conversation: Conversation, shows: ShowFact[], asked: Understanding): ShowFact | undefined {
  if (shows.length === 0) return undefined;
  if (asked.show) return asked.show;
  if (asked.topics.includes('whatsOn') && !asked.contextShow) return undefined;
  // Only one show on the programme: it is the one meant.
  if (shows.length === 1 && informative(asked.topics).some((topic) => topic !== 'policy' && topic !== 'contact')) return shows[0];
  // The earlier turn's tool calls name it exactly (a show's slug, or an event's, which starts with it).
  if (asked.contextShow) {
    const fromTools = shows.find((show) => asked.contextShow === show.slug) ?? shows.find((show) => asked.contextShow!.startsWith(`${show.slug}-`));
    if (fromTools) return fromTools;
  }
  if (asked.topics.includes('whatsOn')) return undefined;
  // The show of the turn before, when this question names none ("when is it on?", "how much?"); not for a
  // question across the programme ("the cheapest show?", "which shows …").
  if (asked.rank && !asked.anaphora && !asked.comparative) return undefined;
  if (asked.acrossShows) return undefined;
  if (asked.previous?.show) return asked.previous.show;
  // After a question across the programme ("what's on on the 2nd?" — "and the day after?"), no one show is meant.
  if (!asked.reference && !asked.bookIt && asked.previous && !asked.previous.show && !asked.previous.contextShow && (asked.previous.topics.includes('whatsOn') || asked.previous.days)) return undefined;
  const previousAnswer = conversation.turnTexts[conversation.userTexts.length - 2];
  if (previousAnswer) {
    // The one show it named; of several, the one the party can see (the others were named for their age rule).
    const mentioned = shows.filter((show) => fold(previousAnswer).includes(fold(show.title)));
    if (mentioned.length === 1) return mentioned[0];
    const admitted = asked.party?.children ? mentioned.filter((show) => !ageBlocked(show, asked.party)) : [];
    if (admitted.length === 1) return admitted[0];
  }
  return undefined;
}

function usage(prompt: LanguageModelV3Prompt, decision: Decision): LanguageModelV3Usage {
  const promptChars = JSON.stringify(prompt).length;
  const outputChars = decision.kind === 'text' ? decision.text.length : JSON.stringify(decision.calls).length;
  const input = Math.ceil(promptChars / 4);
  const output = Math.ceil(outputChars / 4);
  return {
    inputTokens: { total: input, noCache: input, cacheRead: undefined, cacheWrite: undefined },
    outputTokens: { total: output, text: output, reasoning: undefined },
  };
}
