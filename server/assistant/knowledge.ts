import type { KnowledgeFact } from './facts.ts';
import { contentWords, fold, languageOf } from './offline/text.ts';

/**
 * Which published knowledge documents answer a question: word overlap between the question and each
 * document (tags and title weigh more than the body), with English↔Vietnamese topic words bridged so a
 * question in one language finds the documents tagged in the other. No facts here: only how guests name
 * topics.
 */
const TOPIC_WORDS: Array<[string, string[]]> = [
  ['cancellation', ['cancel', 'cancellation', 'refund', 'refunds', 'huy', 'hoan', 'reschedule', 'change', 'doi']],
  ['dress-code', ['dress', 'wear', 'attire', 'clothes', 'clothing', 'trang', 'phuc', 'mac', 'quan', 'ao']],
  ['children', ['children', 'child', 'kids', 'kid', 'baby', 'age', 'family', 'tre', 'em', 'con', 'nho', 'tuoi', 'be']],
  ['dietary', ['vegetarian', 'vegan', 'allergy', 'allergies', 'allergic', 'dietary', 'diet', 'halal', 'gluten', 'food', 'menu', 'seafood', 'chay', 'ung', 'kieng', 'mon', 'an']],
  ['arrival', ['arrive', 'arrival', 'early', 'late', 'doors', 'time', 'den', 'som', 'tre', 'muon', 'gio', 'cua']],
  ['parking', ['parking', 'park', 'car', 'motorbike', 'taxi', 'grab', 'xe', 'dau', 'gui', 'bai']],
  ['private-events', ['private', 'corporate', 'company', 'wedding', 'party', 'group', 'hire', 'rent', 'rieng', 'tiec', 'cong', 'ty', 'cuoi', 'thue', 'doan', 'nhom']],
  ['accessibility', ['wheelchair', 'accessible', 'accessibility', 'disabled', 'disability', 'stairs', 'elevator', 'lift', 'lan', 'khuyet', 'tat', 'thang', 'may']],
  ['contact', ['contact', 'phone', 'call', 'email', 'address', 'where', 'location', 'located', 'directions', 'map', 'hotline', 'lien', 'he', 'dien', 'thoai', 'dia', 'chi', 'duong']],
  ['payment', ['pay', 'payment', 'card', 'cash', 'deposit', 'vnpay', 'thanh', 'toan', 'coc', 'the', 'tien']],
];

const AMBIGUOUS = new Set(['the', 'an', 'be', 'may', 'he', 'con', 'den', 'em', 'mac', 'gio', 'ung', 'lan', 'coc', 'doi', 'ty', 'chi']);

export interface ScoredDocument {
  document: KnowledgeFact;
  score: number;
}

export function rankKnowledge(documents: KnowledgeFact[], question: string): ScoredDocument[] {
  const asked = new Set(contentWords(fold(question)).map(stem));
  const foldedQuestion = fold(question);
  // Unaccented Vietnamese words that are also English ones ("thẻ" is "the", "bé" is "be") count only when the
  // question is not written in English.
  const english = languageOf(question) === 'en';
  for (const [topic, words] of TOPIC_WORDS) {
    if (words.some((word) => !(english && AMBIGUOUS.has(word)) && (foldedQuestion.includes(` ${word} `) || foldedQuestion.includes(` ${word}s `)))) asked.add(`#${topic}`);
  }
  const scored = documents.map((document) => {
    const tagText = fold(document.tags.join(' '));
    const titleWords = new Set(contentWords(fold(document.title)).map(stem));
    const bodyWords = new Set(contentWords(fold(document.body)).map(stem));
    const docTopics = new Set<string>();
    for (const [topic, words] of TOPIC_WORDS) {
      const topicFolded = fold(topic);
      if (tagText.includes(topicFolded) || words.slice(0, 3).some((word) => tagText.includes(` ${word}`) || titleWords.has(stem(word)))) docTopics.add(`#${topic}`);
    }
    let score = 0;
    for (const word of asked) {
      if (word.startsWith('#')) score += docTopics.has(word) ? 4 : 0;
      else if (tagText.includes(` ${word}`)) score += 3;
      else if (titleWords.has(word)) score += 2;
      else if (bodyWords.has(word)) score += 0.5;
    }
    return { document, score };
  });
  return scored.filter((entry) => entry.score > 0).sort((a, b) => b.score - a.score);
}

const stem = (word: string) => (word.length > 4 ? word.replace(/(ies|es|s|ing|ed)$/, '') : word);
