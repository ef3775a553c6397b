import { createRequire as __venueCreateRequire } from 'node:module'; const require = __venueCreateRequire(import.meta.url);
import {
  readKnowledge
} from "./chunk-VP4IMZ74.js";
import {
  __name
} from "./chunk-D2NJZ3J4.js";

// server/assistant/tools.ts
import { tool } from "ai";
import { z } from "zod";

// server/assistant/offline/text.ts
import { distance as levenshtein } from "fastest-levenshtein";
function fold(text) {
  return ` ${text.toLowerCase().normalize("NFD").replace(/[\u0300-\u036f]/g, "").replace(/đ/g, "d").replace(/['’`]/g, "").replace(/[^a-z0-9:/.\-]+/g, " ").replace(/(?<=[a-z])[.\-/:]+(?=\s|$)/g, " ").replace(/\s+/g, " ").trim()} `;
}
__name(fold, "fold");
function hasAny(folded, phrases) {
  return phrases.some((phrase) => hasPhrase(folded, phrase));
}
__name(hasAny, "hasAny");
function hasPhrase(folded, phrase) {
  if (phrase.endsWith("*")) return folded.includes(` ${phrase.slice(0, -1)}`);
  return folded.includes(` ${phrase} `);
}
__name(hasPhrase, "hasPhrase");
var VIETNAMESE_LETTERS = /[ăâđêôơưạảấầẩẫậắằẳẵặẹẻẽếềểễệỉịọỏốồổỗộớờởỡợụủứừửữựỳỵỷỹ]/i;
var VIETNAMESE_WORDS = ["khong", "co", "ban", "toi", "minh", "gia", "ve", "dat", "cho", "ngay", "nao", "bao", "nhieu", "may", "gio", "xin", "chao", "cam", "on", "nha", "hat", "le", "thu", "mai", "nay", "duoc", "khi", "o", "dau", "lich", "dien", "nguoi", "tre", "em", "hay", "vay", "a", "nhe", "cua", "voi", "tuan", "toi", "chu", "nhat", "cai", "kia", "thi", "sao", "nao", "the", "ra", "vay", "oi", "a", "ha", "nhi"];
var SHARED_WORDS = /* @__PURE__ */ new Set(["on", "a", "the", "do", "may", "ban", "hat", "em", "cam", "le", "mai", "nay", "chu", "ha", "o", "ra", "thi", "bay", "co"]);
var AMBIGUOUS_ENGLISH = /* @__PURE__ */ new Set(["do", "a", "on", "i", "can", "the"]);
var ENGLISH_WORDS = ["whats", "wheres", "hows", "january", "february", "march", "april", "june", "july", "august", "september", "october", "november", "december", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday", "the", "what", "when", "how", "is", "are", "do", "you", "a", "for", "on", "show", "book", "price", "tickets", "can", "i", "we", "have", "any", "there", "tomorrow", "tonight", "much"];
function languageOf(text) {
  if (VIETNAMESE_LETTERS.test(text)) return "vi";
  const words = fold(text).trim().split(" ").filter(Boolean);
  if (words.length === 0) return void 0;
  let vi = 0;
  let en = 0;
  for (const word of words) {
    if (VIETNAMESE_WORDS.includes(word)) vi += SHARED_WORDS.has(word) ? 0.5 : 1;
    if (ENGLISH_WORDS.includes(word)) en += AMBIGUOUS_ENGLISH.has(word) ? 0.5 : 1;
  }
  if (vi >= 2 && vi > en) return "vi";
  if (en < 1 && words.some((word) => VIETNAMESE_WORDS.includes(word) && !ENGLISH_WORDS.includes(word) && !SHARED_WORDS.has(word))) return "vi";
  if (en >= 1 && en >= vi) return "en";
  return void 0;
}
__name(languageOf, "languageOf");
function contentWords(folded) {
  return folded.trim().split(" ").filter((word) => word.length > 2 && !STOP_WORDS.has(word));
}
__name(contentWords, "contentWords");
var STOP_WORDS = /* @__PURE__ */ new Set([
  "the",
  "and",
  "for",
  "you",
  "your",
  "are",
  "can",
  "what",
  "when",
  "where",
  "how",
  "does",
  "did",
  "there",
  "with",
  "any",
  "have",
  "has",
  "this",
  "that",
  "about",
  "from",
  "will",
  "would",
  "could",
  "should",
  "our",
  "please",
  "tell",
  "want",
  "like",
  "know",
  "need",
  "show",
  "shows",
  "venue",
  "there",
  "them",
  "they",
  "which",
  "who",
  "its",
  "into",
  "also",
  "just",
  "more",
  "cho",
  "toi",
  "minh",
  "ban",
  "khong",
  "duoc",
  "nhung",
  "nhu",
  "the",
  "nao",
  "cua",
  "voi",
  "hay",
  "vay",
  "nhe",
  "mot",
  "cac",
  "nhung",
  "la",
  "gi",
  "co",
  "va",
  "o",
  "thi",
  "se",
  "da",
  "dang",
  "ve"
]);
function repairTypos(folded, vocabulary, byInitial) {
  const words = folded.trim().split(" ");
  let changed = false;
  const out = words.map((word) => {
    if (word.length < 5 || vocabulary.has(word) || KNOWN_WORDS.has(word) || VIETNAMESE_SYLLABLE.test(word) || /\d/.test(word)) return word;
    const allowed = word.length >= 8 ? 2 : 1;
    let best;
    let bestDistance = allowed + 1;
    let tie = false;
    for (const candidate of byInitial.get(word[0]) ?? []) {
      if (Math.abs(candidate.length - word.length) > allowed) continue;
      const d = word.length === candidate.length && swapped(word, candidate) ? 0.9 : levenshtein(word, candidate);
      if (d < bestDistance) {
        best = candidate;
        bestDistance = d;
        tie = false;
      } else if (d === bestDistance && candidate !== best) tie = true;
    }
    if (!best || bestDistance > allowed || tie) return word;
    changed = true;
    return best;
  });
  return changed ? ` ${out.join(" ")} ` : folded;
}
__name(repairTypos, "repairTypos");
var VIETNAMESE_SYLLABLE = /^(ngh|ng|nh|ch|gh|gi|kh|ph|qu|th|tr|[bcdghklmnpqrstvx])?[aeiouy]{1,3}(ng|nh|ch|[cmnpt])?$/;
function swapped(a, b) {
  const diff = [];
  for (let i = 0; i < a.length; i += 1) if (a[i] !== b[i]) diff.push(i);
  return diff.length === 2 && diff[1] === diff[0] + 1 && a[diff[0]] === b[diff[1]] && a[diff[1]] === b[diff[0]];
}
__name(swapped, "swapped");
function vocabularyIndex(words) {
  const vocabulary = /* @__PURE__ */ new Set();
  const byInitial = /* @__PURE__ */ new Map();
  for (const phrase of words) {
    for (const word of fold(phrase.replace(/\*$/, "")).trim().split(" ")) {
      if (!word || vocabulary.has(word)) continue;
      vocabulary.add(word);
      if (word.length >= 4) byInitial.set(word[0], [...byInitial.get(word[0]) ?? [], word]);
    }
  }
  return { vocabulary, byInitial };
}
__name(vocabularyIndex, "vocabularyIndex");
var KNOWN_WORDS = new Set(
  "about above after again against along already although always among another anyone anything anyway around asked because become before being below between bring brought could didnt doesnt doing during either enough every everyone everything evening first friend friends going gonna great group happy having hello heres hours house however inside instead itself later least leave little looking lovely maybe might minute minutes money month months morning mother father night nothing often other others outside people perhaps place please pretty quite rather really right since something sometimes sorry still sure thank thanks their theirs there these thing things think those though three through together tonight totally under until usually very wanna wants where whether which while whole whose without would wrong years young yours yourself dinner lunch family wife husband partner friend daughter birthday anniversary honeymoon visit visiting trip holiday vacation interested possible problem question questions answer wondering check checking looking table tables watch watching".split(" ")
);

// server/assistant/knowledge.ts
var TOPIC_WORDS = [
  ["cancellation", ["cancel", "cancellation", "refund", "refunds", "huy", "hoan", "reschedule", "change", "doi"]],
  ["dress-code", ["dress", "wear", "attire", "clothes", "clothing", "trang", "phuc", "mac", "quan", "ao"]],
  ["children", ["children", "child", "kids", "kid", "baby", "age", "family", "tre", "em", "con", "nho", "tuoi", "be"]],
  ["dietary", ["vegetarian", "vegan", "allergy", "allergies", "allergic", "dietary", "diet", "halal", "gluten", "food", "menu", "seafood", "chay", "ung", "kieng", "mon", "an"]],
  ["arrival", ["arrive", "arrival", "early", "late", "doors", "time", "den", "som", "tre", "muon", "gio", "cua"]],
  ["parking", ["parking", "park", "car", "motorbike", "taxi", "grab", "xe", "dau", "gui", "bai"]],
  ["private-events", ["private", "corporate", "company", "wedding", "party", "group", "hire", "rent", "rieng", "tiec", "cong", "ty", "cuoi", "thue", "doan", "nhom"]],
  ["accessibility", ["wheelchair", "accessible", "accessibility", "disabled", "disability", "stairs", "elevator", "lift", "lan", "khuyet", "tat", "thang", "may"]],
  ["contact", ["contact", "phone", "call", "email", "address", "where", "location", "located", "directions", "map", "hotline", "lien", "he", "dien", "thoai", "dia", "chi", "duong"]],
  ["payment", ["pay", "payment", "card", "cash", "deposit", "vnpay", "thanh", "toan", "coc", "the", "tien"]]
];
var AMBIGUOUS = /* @__PURE__ */ new Set(["the", "an", "be", "may", "he", "con", "den", "em", "mac", "gio", "ung", "lan", "coc", "doi", "ty", "chi"]);
function rankKnowledge(documents, question) {
  const asked = new Set(contentWords(fold(question)).map(stem));
  const foldedQuestion = fold(question);
  const english = languageOf(question) === "en";
  for (const [topic, words] of TOPIC_WORDS) {
    if (words.some((word) => !(english && AMBIGUOUS.has(word)) && (foldedQuestion.includes(` ${word} `) || foldedQuestion.includes(` ${word}s `)))) asked.add(`#${topic}`);
  }
  const scored = documents.map((document) => {
    const tagText = fold(document.tags.join(" "));
    const titleWords = new Set(contentWords(fold(document.title)).map(stem));
    const bodyWords = new Set(contentWords(fold(document.body)).map(stem));
    const docTopics = /* @__PURE__ */ new Set();
    for (const [topic, words] of TOPIC_WORDS) {
      const topicFolded = fold(topic);
      if (tagText.includes(topicFolded) || words.slice(0, 3).some((word) => tagText.includes(` ${word}`) || titleWords.has(stem(word)))) docTopics.add(`#${topic}`);
    }
    let score = 0;
    for (const word of asked) {
      if (word.startsWith("#")) score += docTopics.has(word) ? 4 : 0;
      else if (tagText.includes(` ${word}`)) score += 3;
      else if (titleWords.has(word)) score += 2;
      else if (bodyWords.has(word)) score += 0.5;
    }
    return { document, score };
  });
  return scored.filter((entry) => entry.score > 0).sort((a, b) => b.score - a.score);
}
__name(rankKnowledge, "rankKnowledge");
var stem = /* @__PURE__ */ __name((word) => word.length > 4 ? word.replace(/(ies|es|s|ing|ed)$/, "") : word, "stem");

// server/assistant/tools.ts
var localDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/).describe("A venue-local date, YYYY-MM-DD.");
var showSlug = z.string().max(120).describe("A show's slug, as listShows gives it.");
var eventSlug = z.string().max(120).describe("A performance's eventSlug, as listShows (nextDates) or listEvents give it.");
var TOOL_INPUTS = {
  listShows: z.object({}),
  listEvents: z.object({ show: showSlug.optional(), from: localDate.optional(), to: localDate.optional() }),
  checkAvailability: z.object({ date: localDate, show: showSlug.optional(), guests: z.number().int().min(1).max(500).optional() }),
  getBookingOptions: z.object({ event: eventSlug, guests: z.number().int().min(1).max(500).optional() }),
  getSiteRoutes: z.object({}),
  searchKnowledge: z.object({ question: z.string().max(500).describe("The guest's question or its topic.") })
};
var TOOL_NAMES = ["listShows", "listEvents", "checkAvailability", "getBookingOptions", "getSiteRoutes", "searchKnowledge"];
function createTools(source, locale) {
  const data = memoized(source);
  return {
    listShows: tool({
      description: "The shows on the programme: slug, title, summary, duration, showUrl (the show's page), priceFromVnd (lowest total for one guest, service charge and VAT included) and the next performances (eventSlug, date, time, availability, bookingUrl).",
      inputSchema: TOOL_INPUTS.listShows,
      execute: /* @__PURE__ */ __name(() => data.shows(locale), "execute")
    }),
    listEvents: tool({
      description: "Upcoming performances between two local dates (default: the next two weeks), optionally of one show: date, start time, doors, show, availability, seats left, bookingUrl.",
      inputSchema: TOOL_INPUTS.listEvents,
      execute: /* @__PURE__ */ __name(({ show, from, to }) => data.events(locale, { show, from, to }), "execute")
    }),
    checkAvailability: tool({
      description: "Whether the performances of one local date can take a party: availability, fit (FITS, NOT_ENOUGH_SEATS, PARTY_SIZE_NOT_OFFERED, SOLD_OUT, CLOSED), bookingUrl, and the inquiry page for groups.",
      inputSchema: TOOL_INPUTS.checkAvailability,
      execute: /* @__PURE__ */ __name(({ date, show, guests }) => data.availability(locale, { date, show, guests }), "execute")
    }),
    getBookingOptions: tool({
      description: "The ways to book one performance (offers): price per guest in VND (perGuest: before and with service charge and VAT), what each includes, the party sizes it takes, and the booking page; with guests, the price for the party.",
      inputSchema: TOOL_INPUTS.getBookingOptions,
      execute: /* @__PURE__ */ __name(({ event, guests }) => data.bookingOptions(locale, { event, guests }), "execute")
    }),
    getSiteRoutes: tool({
      description: "The public website's links in this locale (home, shows, inquiries, waitlist, partners, each show's showUrl, each event's bookingUrl). Only these links may appear in answers.",
      inputSchema: TOOL_INPUTS.getSiteRoutes,
      execute: /* @__PURE__ */ __name(() => data.routes(locale), "execute")
    }),
    searchKnowledge: tool({
      description: "The venue's published policies and practical information (cancellation and refunds, dress code, children, dietary options, arrival, parking, accessibility, private events, contact), best matches first.",
      inputSchema: TOOL_INPUTS.searchKnowledge,
      execute: /* @__PURE__ */ __name(async ({ question }) => {
        const documents = readKnowledge(await data.knowledge(locale));
        const ranked = rankKnowledge(documents, question);
        return { documents: (ranked.length ? ranked.map((entry) => entry.document) : documents).slice(0, 4) };
      }, "execute")
    })
  };
}
__name(createTools, "createTools");
function memoized(source) {
  const answers = /* @__PURE__ */ new Map();
  const once = /* @__PURE__ */ __name((name, call) => (...args) => {
    const key = `${name} ${JSON.stringify(args)}`;
    let answer = answers.get(key);
    if (!answer) {
      answer = call(...args);
      answers.set(key, answer);
      answer.catch(() => answers.delete(key));
    }
    return answer;
  }, "once");
  return {
    shows: once("shows", (locale) => source.shows(locale)),
    events: once("events", (locale, query) => source.events(locale, query)),
    availability: once("availability", (locale, query) => source.availability(locale, query)),
    bookingOptions: once("bookingOptions", (locale, query) => source.bookingOptions(locale, query)),
    routes: once("routes", (locale) => source.routes(locale)),
    knowledge: once("knowledge", (locale) => source.knowledge(locale))
  };
}
__name(memoized, "memoized");

export {
  fold,
  hasAny,
  languageOf,
  contentWords,
  repairTypos,
  vocabularyIndex,
  rankKnowledge,
  TOOL_INPUTS,
  TOOL_NAMES,
  createTools
};
