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
    .replace(/['’`]/g, '')
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
const VIETNAMESE_WORDS = ['khong', 'co', 'ban', 'toi', 'minh', 'gia', 've', 'dat', 'cho', 'ngay', 'nao', 'bao', 'nhieu', 'may', 'gio', 'xin', 'chao', 'cam', 'on', 'nha', 'hat', 'le', 'thu', 'mai', 'nay', 'duoc', 'khi', 'o', 'dau', 'lich', 'dien', 'nguoi', 'tre', 'em', 'hay', 'vay', 'a', 'nhe', 'cua', 'voi', 'tuan', 'toi', 'chu', 'nhat'];
const ENGLISH_WORDS = ['the', 'what', 'when', 'how', 'is', 'are', 'do', 'you', 'a', 'for', 'on', 'show', 'book', 'price', 'tickets', 'can', 'i', 'we', 'have', 'any', 'there', 'tomorrow', 'tonight', 'much'];

/** The language a guest wrote in, when it is clear: `vi`, `en`, or undefined. */
export function languageOf(text: string): 'vi' | 'en' | undefined {
  if (VIETNAMESE_LETTERS.test(text)) return 'vi';
  const words = fold(text).trim().split(' ').filter(Boolean);
  if (words.length === 0) return undefined;
  let vi = 0;
  let en = 0;
  for (const word of words) {
    if (VIETNAMESE_WORDS.includes(word)) vi += 1;
    if (ENGLISH_WORDS.includes(word)) en += 1;
  }
  if (vi >= 2 && vi > en) return 'vi';
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
