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
import { readEvents, readKnowledge, readOffers, readRoutes, readShows, type EventFact, type ShowFact } from '../facts.ts';
import type { ToolName } from '../tools.ts';
import { composeAnswer } from './compose.ts';
import type { Lang } from './format.ts';
import { contentWords, fold } from './text.ts';
import { understand, type Topic, type Understanding } from './understand.ts';

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
type Decision = { kind: 'tools'; calls: ToolCallPlan[] } | { kind: 'text'; text: string };

interface Conversation {
  userTexts: string[];
  assistantTexts: string[];
  /** Tool results since the guest's last message, by tool name (every call's, in order). */
  results: Map<string, Array<{ value: unknown; failed: boolean }>>;
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

  /** One step: the tools to call next, or the answer. */
  decide(options: LanguageModelV3CallOptions): Decision {
    const call = (options.providerOptions?.offline ?? {}) as OfflineCallOptions;
    const lang: Lang = (call.locale ?? this.options.defaultLocale).toLowerCase().startsWith('vi') ? 'vi' : 'en';
    const markdown = call.markdown ?? true;
    const available = new Set((options.tools ?? []).map((tool) => tool.name));
    const conversation = readConversation(options.prompt);
    const question = conversation.userTexts.at(-1) ?? '';
    const now = this.options.now?.() ?? new Date();
    const zone = this.options.timezone;
    const asked = understandInContext(conversation, now, zone);
    const { results } = conversation;

    const wantsKnowledge = asked.topics.some((topic) => topic === 'policy' || topic === 'contact' || topic === 'privateEvents') || informative(asked.topics).length === 0;
    if (!STEP_ONE.every((name) => results.has(name)) && STEP_ONE.every((name) => available.has(name))) {
      const calls: ToolCallPlan[] = STEP_ONE.map((toolName) => ({ toolName, input: {} }));
      if (wantsKnowledge && available.has('searchKnowledge') && informative(asked.topics).length + (question.trim().length > 12 ? 1 : 0) > 0) {
        calls.push({ toolName: 'searchKnowledge', input: { question: question.slice(0, 500) } });
      }
      // A bare greeting or thanks needs no facts at all.
      if (informative(asked.topics).length === 0 && (asked.topics.includes('greeting') || asked.topics.includes('thanks')) && question.trim().split(/\s+/).length <= 6) {
        return { kind: 'text', text: composeAnswer(baseInput(lang, zone, now, markdown, question, asked, [], results)) };
      }
      return { kind: 'tools', calls };
    }

    const shows = readShows(results.get('listShows')?.[0]?.value);
    const show = resolveShow(conversation, shows, asked);
    const today = DateTime.fromJSDate(now, { zone }).startOf('day');
    const upcoming = readEvents(results.get('listShows')?.[0]?.value, zone);
    const stepTwo = planStepTwo(asked, show, shows, upcoming, today).filter((planned) => available.has(planned.toolName));
    if (stepTwo.length && !stepTwo.some((planned) => results.has(planned.toolName))) return { kind: 'tools', calls: stepTwo };

    const input = baseInput(lang, zone, now, markdown, question, asked, shows, results);
    input.show = show;
    return { kind: 'text', text: composeAnswer(input) };
  }
}

const callId = () => randomUUID().replace(/-/g, '').slice(0, 24);

function informative(topics: Topic[]): Topic[] {
  return topics.filter((topic) => topic !== 'greeting' && topic !== 'thanks');
}

function baseInput(lang: Lang, zone: string, now: Date, markdown: boolean, question: string, asked: Understanding, shows: ShowFact[], results: Conversation['results']) {
  const failed = [...results.values()].some((list) => list.some((result) => result.failed));
  const values = (name: ToolName) => (results.get(name) ?? []).filter((result) => !result.failed).map((result) => result.value);
  const called = (name: ToolName) => results.has(name);
  const offers = values('getBookingOptions').flatMap((value) => readOffers(value));
  const seen = new Set<string>();
  return {
    lang,
    zone,
    now,
    markdown,
    question,
    topics: asked.topics,
    weakDetails: asked.weakDetails,
    days: asked.days,
    guests: asked.guests,
    shows,
    show: undefined as ShowFact | undefined,
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
    knowledge: called('searchKnowledge') ? values('searchKnowledge').flatMap((value) => readKnowledge(value)) : undefined,
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
  if (topics.has('prices') || topics.has('showDetails') || topics.has('privateEvents') || (topics.has('availability') && asked.guests)) {
    // Offers are sold per performance: ask for the next bookable one of each show concerned.
    const concerned = show && !topics.has('privateEvents') ? [show] : topics.has('privateEvents') && !topics.has('prices') ? shows.slice(0, 1) : shows;
    for (const candidate of concerned) {
      const mine = upcoming.filter((event) => event.showSlug === candidate.slug);
      const next = mine.find((event) => event.bookingUrl) ?? mine[0];
      if (next) calls.push({ toolName: 'getBookingOptions', input: { event: next.key, ...(asked.guests ? { guests: asked.guests } : {}) } });
    }
  }
  return calls;
}

function readConversation(prompt: LanguageModelV3Prompt): Conversation {
  const conversation: Conversation = { userTexts: [], assistantTexts: [], results: new Map() };
  for (const message of prompt) {
    if (message.role === 'user') {
      conversation.userTexts.push(message.content.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join('\n'));
      conversation.results = new Map();
    } else if (message.role === 'assistant') {
      const text = message.content.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join('\n');
      if (text) conversation.assistantTexts.push(text);
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

/**
 * The last message understood, completed from the one before when it is a follow-up ("and on Saturday?",
 * "for 6 people?", "how much is it?"): its missing days, party size or topics are carried over.
 */
function understandInContext(conversation: Conversation, now: Date, zone: string): Understanding {
  const texts = conversation.userTexts;
  const current = understand(texts.at(-1) ?? '', now, zone);
  if (texts.length < 2) return current;
  const previous = understand(texts.at(-2)!, now, zone);
  const mine = informative(current.topics);
  const followUp = mine.length === 0 || (mine.length === 1 && (mine[0] === 'schedule' || mine[0] === 'showDetails') && (current.days || current.guests));
  if (followUp && informative(previous.topics).length) {
    const topics = new Set<Topic>([...current.topics, ...informative(previous.topics)]);
    if (current.days && topics.has('whatsOn') && !topics.has('availability')) topics.add('schedule');
    return { ...current, topics: [...topics], days: current.days ?? previous.days, guests: current.guests ?? previous.guests };
  }
  return current;
}

/** The show the guest means: named in the last message, else the one the conversation was about. */
function resolveShow(conversation: Conversation, shows: ShowFact[], asked: Understanding): ShowFact | undefined {
  if (shows.length === 0) return undefined;
  const named = matchShow(conversation.userTexts.at(-1) ?? '', shows);
  if (named) return named;
  if (asked.topics.includes('whatsOn')) return undefined;
  // Only one show on the programme: it is the one meant.
  if (shows.length === 1 && informative(asked.topics).some((topic) => topic !== 'policy' && topic !== 'contact')) return shows[0];
  const history = [...conversation.userTexts.slice(0, -1), ...conversation.assistantTexts].reverse();
  const recent = [conversation.assistantTexts.at(-1), conversation.userTexts.at(-2)].filter((text): text is string => Boolean(text));
  for (const text of recent.length ? recent : history.slice(0, 2)) {
    const mentioned = shows.filter((show) => fold(text).includes(fold(show.title)));
    if (mentioned.length === 1) return mentioned[0];
    const matched = matchShow(text, shows);
    if (matched && mentioned.length === 0) return matched;
    if (mentioned.length > 1) return undefined;
  }
  return undefined;
}

const stem = (word: string) => (word.length > 4 ? word.replace(/(es|s)$/, '') : word);

/** The one show a text names: its title (or most of it), its slug, or distinctive words of its summary. */
export function matchShow(text: string, shows: ShowFact[]): ShowFact | undefined {
  const folded = fold(text);
  const words = new Set(contentWords(folded).map(stem));
  const scores = shows.map((show) => {
    const title = fold(show.title);
    if (folded.includes(title)) return { show, score: 100 };
    const slugWords = show.slug.split('-').filter((word) => word.length > 2);
    let score = slugWords.length && slugWords.every((word) => words.has(stem(word))) ? 50 : 0;
    const titleWords = contentWords(title).map(stem);
    score += titleWords.filter((word) => words.has(word)).length * 10;
    const summaryWords = new Set(contentWords(fold(`${show.summary ?? ''} ${show.description ?? ''}`)).filter((word) => word.length >= 5).map(stem));
    score += [...words].filter((word) => word.length >= 5 && summaryWords.has(word)).length * 2;
    return { show, score };
  });
  scores.sort((a, b) => b.score - a.score);
  const [best, second] = scores;
  if (!best || best.score < 2) return undefined;
  if (second && (second.score >= best.score * 0.8 || (best.score < 4 && second.score > 0))) return undefined;
  return best.show;
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
