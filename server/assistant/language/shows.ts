import { distance as levenshtein } from 'fastest-levenshtein';
import type { ShowFact } from '../facts.ts';
import { fold, languageOf } from '../offline/text.ts';
import type { Lexicon } from './lexicon.ts';

const stem = (word: string) => (word.length > 4 ? word.replace(/(es|s)$/, '') : word);

/** Whether `word` is `target` or, for words of 5 letters and more, one typo away from it. */
const near = (word: string, target: string) => word === target || (target.length >= 5 && word.length >= 5 && levenshtein(word, target) <= 1);

/**
 * The one show a text names, from the venue's programme (never from the language files): its title (or most of
 * it), its slug, or distinctive words of its summary. A title word that is also an everyday word or a place
 * (`commonTitleWords`, `places`: "dark", "saigon") names a show only with more evidence: another word of its title,
 * or a show word beside it ("the saigon show").
 */
export function matchShow(text: string, shows: ShowFact[], lex: Lexicon, minimum = 2): ShowFact | undefined {
  const folded = fold(text);
  const generic = new Set([...lex.list('genericWords'), ...lex.list('stopWords')]);
  const common = new Set([...lex.list('commonTitleWords'), ...lex.list('places').flatMap((place) => place.split(' '))]);
  const words = [...new Set(folded.trim().split(' ').filter((word) => word.length > 2 && !generic.has(word)).map(stem))];
  const has = (target: string) => words.some((word) => near(word, target));
  const all = folded.trim().split(' ');
  const bigrams = all.slice(0, -1).map((word, i) => `${word} ${all[i + 1]}`).filter((bigram) => bigram.split(' ').every((word) => word.length >= 2 && !generic.has(word)));
  const showWord = lex.has(folded, 'showWords');
  const people = new Set([...lex.list('guestWords'), ...lex.list('adultWords'), ...lex.list('childWords')].filter((phrase) => !phrase.includes(' ')));
  const scores = shows.map((show) => {
    const title = fold(show.title);
    if (folded.includes(title)) return { show, score: 100 };
    const slugWords = show.slug.split('-').filter((word) => word.length > 2);
    let score = slugWords.length && slugWords.every((word) => has(stem(word))) ? 50 : 0;
    const titleWords = [...new Set([...title.trim().split(' ').filter((word) => word.length > 2 && !generic.has(word)), ...slugWords].map(stem))];
    // A distinctive word of the title names the show; an everyday word or a place only helps another, or a show word.
    const hits = titleWords.filter((word) => has(word));
    const distinctive = hits.filter((word) => !common.has(word));
    score += distinctive.length * 10 + (distinctive.length ? (hits.length - distinctive.length) * 5 : hits.length >= 2 ? 10 : hits.length && showWord ? 3 : hits.length ? 1 : 0);
    // Vietnamese titles are made of short words: two in a row of the title name it ("hoa sen"), unless the pair is a place ("sài gòn").
    const titleList = title.trim().split(' ');
    const titleBigrams = titleList.slice(0, -1).map((word, i) => `${word} ${titleList[i + 1]}`);
    score += titleBigrams.filter((bigram) => folded.includes(` ${bigram} `)).reduce((sum, bigram) => sum + (bigram.split(' ').every((word) => common.has(word)) ? (showWord ? 3 : 1) : 10), 0);
    const about = fold(`${show.summary ?? ''} ${show.description ?? ''}`);
    // Vietnamese words are syllables ("thành" of "thành phố" is also "to become"): its summaries name a show by a
    // pair of words (below), never by one.
    const syllabic = languageOf(show.title) === 'vi';
    const summaryWords = new Set(syllabic ? [] : about.trim().split(' ').filter((word) => word.length >= 5 && !generic.has(word)).map(stem));
    // A word for people ("người", "guests") in a summary names no show ("ban nhạc bảy người" is not "7 người").
    score += words.filter((word) => word.length >= 5 && summaryWords.has(word) && !common.has(word) && !people.has(word)).length * 2;
    // Two words in a row of its summary ("water puppets", "múa rối"): short Vietnamese words need the pair.
    score += bigrams.filter((bigram) => about.includes(` ${bigram} `) && !bigram.split(' ').every((word) => common.has(word))).length * 4;
    return { show, score };
  });
  scores.sort((a, b) => b.score - a.score);
  const [best, second] = scores;
  if (!best || best.score < minimum) return undefined;
  if (second && (second.score >= best.score * 0.8 || (best.score < 4 && second.score > 0))) return undefined;
  return best.show;
}
