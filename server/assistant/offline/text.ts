import { distance as levenshtein } from 'fastest-levenshtein';

/**
 * Text helpers of the offline model: folding (case, Vietnamese diacritics) so that "Thứ Bảy", "thu bay" and
 * "THỨ BẢY" read the same, word matching on folded text, and the guest's language.
 */

/** Lower case, no diacritics (`đ` → `d`), apostrophes dropped, every other non-alphanumeric a single space. */
export function fold(text: string): string {
  return ` ${text
    .toLowerCase()
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/đ/g, 'd')
    // "We'd", "I'd": would, never a word of its own ("wed" is Wednesday, "id" an identifier).
    .replace(/(?<=[a-z])['’`]d\b/g, ' would')
    .replace(/['’`]/g, '')
    // A hyphen with a letter beside it joins words ("3-year-old", "grown-ups"): read as the words apart.
    .replace(/(?<=[a-z])-(?=[a-z0-9])|(?<=[0-9])-(?=[a-z])/g, ' ')
    .replace(/[^a-z0-9:/.\-]+/g, ' ')
    .replace(/(?<=[a-z])[.\-/:]+(?=\s|$)/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()} `;
}

/** Whether folded `text` holds any of the folded `phrases` as whole words (a phrase ending in `*` is a prefix). */
export function hasAny(folded: string, phrases: readonly string[]): boolean {
  return phrases.some((phrase) => hasPhrase(folded, phrase));
}

export function hasPhrase(folded: string, phrase: string): boolean {
  if (phrase.endsWith('*')) return folded.includes(` ${phrase.slice(0, -1)}`);
  return folded.includes(` ${phrase} `);
}

/** Letters only Vietnamese writes (ă â đ ê ô ơ ư and the tone marks on vowels). */
const VIETNAMESE_LETTERS = /[ăâđêôơưạảấầẩẫậắằẳẵặẹẻẽếềểễệỉịọỏốồổỗộớờởỡợụủứừửữựỳỵỷỹ]/i;

/** Common unaccented Vietnamese words (guests often type without diacritics). */
const VIETNAMESE_WORDS = ['khong', 'co', 'ban', 'toi', 'minh', 'gia', 've', 'dat', 'cho', 'ngay', 'nao', 'bao', 'nhieu', 'may', 'gio', 'xin', 'chao', 'cam', 'on', 'nha', 'hat', 'le', 'thu', 'mai', 'nay', 'duoc', 'khi', 'o', 'dau', 'lich', 'dien', 'nguoi', 'tre', 'em', 'hay', 'vay', 'a', 'nhe', 'cua', 'voi', 'tuan', 'toi', 'chu', 'nhat', 'cai', 'kia', 'thi', 'sao', 'nao', 'the', 'ra', 'vay', 'oi', 'a', 'ha', 'nhi'];
/** Unaccented Vietnamese words English also writes. */
const SHARED_WORDS = new Set(['on', 'a', 'the', 'do', 'may', 'ban', 'hat', 'em', 'cam', 'le', 'mai', 'nay', 'chu', 'ha', 'o', 'ra', 'thi', 'bay', 'co']);
const AMBIGUOUS_ENGLISH = new Set(['do', 'a', 'on', 'i', 'can', 'the']);
const ENGLISH_WORDS = ['whats', 'wheres', 'hows', 'january', 'february', 'march', 'april', 'june', 'july', 'august', 'september', 'october', 'november', 'december', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday', 'the', 'what', 'when', 'how', 'is', 'are', 'do', 'you', 'a', 'for', 'on', 'show', 'book', 'price', 'tickets', 'can', 'i', 'we', 'have', 'any', 'there', 'tomorrow', 'tonight', 'much'];

/** The language a guest wrote in, when it is clear: `vi`, `en`, or undefined. */
export function languageOf(text: string): 'vi' | 'en' | undefined {
  if (VIETNAMESE_LETTERS.test(text)) return 'vi';
  const words = fold(text).trim().split(' ').filter(Boolean);
  if (words.length === 0) return undefined;
  let vi = 0;
  let en = 0;
  for (const word of words) {
    if (VIETNAMESE_WORDS.includes(word)) vi += SHARED_WORDS.has(word) ? 0.5 : 1;
    // Short English words that are also unaccented Vietnamese ("do" is "đó", "a" is "à") count half.
    if (ENGLISH_WORDS.includes(word)) en += AMBIGUOUS_ENGLISH.has(word) ? 0.5 : 1;
  }
  if (vi >= 2 && vi > en) return 'vi';
  // One Vietnamese word and nothing but words both languages share ("cái đó", typed "cai do").
  if (en < 1 && words.some((word) => VIETNAMESE_WORDS.includes(word) && !ENGLISH_WORDS.includes(word) && !SHARED_WORDS.has(word))) return 'vi';
  if (en >= 1 && en >= vi) return 'en';
  return undefined;
}

/** Folded words of a text, without the very common ones, for overlap scoring. */
export function contentWords(folded: string): string[] {
  return folded
    .trim()
    .split(' ')
    .filter((word) => word.length > 2 && !STOP_WORDS.has(word));
}

const STOP_WORDS = new Set([
  'the', 'and', 'for', 'you', 'your', 'are', 'can', 'what', 'when', 'where', 'how', 'does', 'did', 'there', 'with', 'any', 'have', 'has', 'this', 'that', 'about', 'from', 'will', 'would', 'could', 'should', 'our', 'please', 'tell', 'want', 'like', 'know', 'need', 'show', 'shows', 'venue', 'there', 'them', 'they', 'which', 'who', 'its', 'into', 'also', 'just', 'more',
  'cho', 'toi', 'minh', 'ban', 'khong', 'duoc', 'nhung', 'nhu', 'the', 'nao', 'cua', 'voi', 'hay', 'vay', 'nhe', 'mot', 'cac', 'nhung', 'la', 'gi', 'co', 'va', 'o', 'thi', 'se', 'da', 'dang', 've',
]);

/**
 * Typo repair on folded text: a word the vocabulary lacks is replaced by the vocabulary word nearest to it when
 * that one is near enough (one edit for 5–7 letters, two from 8; a unique nearest word with the same first
 * letter) — `tommorow` → `tomorrow`, `vegitarian` → `vegetarian`, `resevation` → `reservation`. Short words are
 * left alone: unaccented Vietnamese is made of them and one edit turns one into another.
 */
export function repairTypos(folded: string, vocabulary: ReadonlySet<string>, byInitial: ReadonlyMap<string, readonly string[]>): string {
  const words = folded.trim().split(' ');
  let changed = false;
  const out = words.map((word) => {
    if (word.length < 5 || vocabulary.has(word) || KNOWN_WORDS.has(word) || VIETNAMESE_SYLLABLE.test(word) || /\d/.test(word)) return word;
    const allowed = word.length >= 8 ? 2 : 1;
    let best: string | undefined;
    let bestDistance = allowed + 1;
    let tie = false;
    for (const candidate of byInitial.get(word[0]) ?? []) {
      if (Math.abs(candidate.length - word.length) > allowed) continue;
      // Two letters swapped ("prcie", "conatct") is one slip of the fingers, not two.
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
  return changed ? ` ${out.join(' ')} ` : folded;
}

/** An unaccented Vietnamese syllable (`nguoi`, `khong`, `truoc`): a word of its own, never a typo of a keyword. */
const VIETNAMESE_SYLLABLE = /^(ngh|ng|nh|ch|gh|gi|kh|ph|qu|th|tr|[bcdghklmnpqrstvx])?[aeiouy]{1,3}(ng|nh|ch|[cmnpt])?$/;

/** Whether `a` is `b` with two neighbouring letters swapped. */
function swapped(a: string, b: string): boolean {
  const diff: number[] = [];
  for (let i = 0; i < a.length; i += 1) if (a[i] !== b[i]) diff.push(i);
  return diff.length === 2 && diff[1] === diff[0] + 1 && a[diff[0]] === b[diff[1]] && a[diff[1]] === b[diff[0]];
}

/** Index of a vocabulary by first letter (what `repairTypos` searches). */
export function vocabularyIndex(words: Iterable<string>): { vocabulary: Set<string>; byInitial: Map<string, string[]> } {
  const vocabulary = new Set<string>();
  const byInitial = new Map<string, string[]>();
  for (const phrase of words) {
    for (const word of fold(phrase.replace(/\*$/, '')).trim().split(' ')) {
      if (!word || vocabulary.has(word)) continue;
      vocabulary.add(word);
      if (word.length >= 4) byInitial.set(word[0], [...(byInitial.get(word[0]) ?? []), word]);
    }
  }
  return { vocabulary, byInitial };
}

/** Everyday English words that are never typos of a keyword (`there` is not `three`, `where` not `here`). */
const KNOWN_WORDS = new Set(
  (
    'about above after again against along already although always among another anyone anything anyway around asked because become before being below between bring brought could didnt doesnt doing during either enough every everyone everything evening first friend friends going gonna great group happy having hello heres hours house however inside instead itself later least leave little looking lovely maybe might minute minutes money month months morning mother father night nothing often other others outside people perhaps place please pretty quite rather really right since something sometimes sorry still sure thank thanks their theirs there these thing things think those though three through together tonight totally under until usually very wanna wants where whether which while whole whose without would wrong years young yours yourself dinner lunch family wife husband partner friend daughter birthday anniversary honeymoon visit visiting trip holiday vacation interested possible problem question questions answer wondering check checking looking table tables watch watching'
  ).split(' '),
);
