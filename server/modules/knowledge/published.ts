import type { Knex } from 'knex';
import { publishedDocumentsIn } from './queries.ts';

/**
 * The assistant's read of the knowledge (`GET /api/ai/customer-support/knowledge`): published documents only,
 * one per topic in the asked locale, the default locale's document filling a topic that has none in it. The
 * published set is small (tens of documents), so it is read in one statement and matched here.
 */
export interface PublishedDocument {
  topic: string;
  locale: string;
  title: string;
  body: string;
  tags: string[];
}

export interface KnowledgeQuery {
  locale: string;
  defaultLocale: string;
  tag?: string;
  q?: string;
  limit: number;
}

/** Lower case, accents and `đ` folded (`Trẻ em` → `tre em`), so guests who type without diacritics still match. */
export function fold(text: string): string {
  return text.normalize('NFD').replace(/\p{M}+/gu, '').replace(/đ/giu, 'd').toLowerCase();
}

/** Function words of the site's languages (folded) that would match every document. */
const STOP_WORDS = new Set(
  (
    'the and for you are is do does can could what how when where which who a an to of in on at my i we it be with your have has there any or ' +
    'about me us our this that will would should please tell know if not no yes hi hello ' +
    'co khong la va cua cho toi ban duoc thi ma nao gi o voi nhung cac mot khi nay do sao the nhu vay a a oi xin chao'
  ).split(' '),
);

const wordsOf = (text: string) => fold(text).split(/[^\p{L}\p{N}]+/u).filter(Boolean);

/** The query's usable words: folded, without function words and duplicates. */
export function queryWords(q: string): string[] {
  return [...new Set(wordsOf(q).filter((word) => !STOP_WORDS.has(word)))];
}

/**
 * How well a document matches: per query word, 2 when it is in the topic, title or tags, 1 when only in the body
 * (a word of four letters or more also matches a longer word it starts: `child` → `children`).
 */
export function score(doc: PublishedDocument, words: readonly string[]): number {
  const head = new Set([...wordsOf(doc.topic), ...wordsOf(doc.title), ...doc.tags.flatMap(wordsOf)]);
  const body = new Set(wordsOf(doc.body));
  const hit = (set: Set<string>, word: string) => set.has(word) || (word.length >= 4 && [...set].some((token) => token.startsWith(word)));
  return words.reduce((total, word) => total + (hit(head, word) ? 2 : hit(body, word) ? 1 : 0), 0);
}

export async function publishedKnowledge(knex: Knex, query: KnowledgeQuery): Promise<PublishedDocument[]> {
  const rows = await publishedDocumentsIn(knex, [...new Set([query.locale, query.defaultLocale])]);
  const byTopic = new Map<string, PublishedDocument>();
  for (const row of rows) {
    const doc = { topic: row.topic, locale: row.locale, title: row.title, body: row.body, tags: row.tags };
    const held = byTopic.get(doc.topic);
    if (!held || (held.locale !== query.locale && doc.locale === query.locale)) byTopic.set(doc.topic, doc);
  }
  let docs = [...byTopic.values()];
  if (query.tag) docs = docs.filter((doc) => doc.tags.includes(query.tag!));
  const words = query.q ? queryWords(query.q) : [];
  if (words.length) {
    const scored = docs.map((doc) => ({ doc, score: score(doc, words) })).filter((entry) => entry.score > 0);
    scored.sort((a, b) => b.score - a.score || a.doc.topic.localeCompare(b.doc.topic));
    docs = scored.map((entry) => entry.doc);
  }
  return docs.slice(0, query.limit);
}
