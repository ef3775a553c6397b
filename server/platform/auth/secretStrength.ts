/**
 * Is a shared secret (a superuser token, a service or webhook token, the metrics token) strong enough to guard the
 * API over the network? Production refuses to start with one that is not (server/platform/guardRails.ts).
 *
 * A secret this server compares is chosen by the venue, not typed by a person, so the rule is that of a random
 * token (`openssl rand -hex 32`): at least 32 characters, and none of the shapes people use instead of randomness.
 * A password-strength estimator (zxcvbn-ts) was tried: it took 0.6–1.9 s per 32–64-character token on this
 * machine, at every production start, to say what the checks below say for secrets of this kind.
 */
export const MIN_SECRET_LENGTH = 32;

/**
 * Words that make up the secrets people write by hand ("supersecretadmintoken…", "change-me-…"): a secret whose
 * letters are mostly these words is a phrase, not a random value.
 */
const COMMON_WORDS = [
  'password', 'passwd', 'secret', 'token', 'admin', 'administrator', 'superuser', 'super', 'user', 'root', 'change', 'changeme',
  'example', 'sample', 'test', 'testing', 'demo', 'default', 'dev', 'development', 'prod', 'production', 'staging', 'local',
  'localhost', 'venue', 'api', 'key', 'service', 'webhook', 'chat', 'metrics', 'verify', 'messaging', 'letmein', 'welcome',
  'qwerty', 'asdf', 'zxcv', 'abc', 'abcd', 'xyz', 'placeholder', 'your', 'here', 'replace', 'this', 'with', 'long',
  'random', 'string', 'value', 'the', 'a', 'to', 'me', 'my', 'and', 'of', 'for', 'it', 'not', 'real', 'fake', 'dummy',
  'todo', 'fixme', 'insert', 'put', 'set', 'new', 'one', 'two', 'three', 'strong', 'very', 'hard', 'guess',
].sort((a, b) => b.length - a.length);

/** Values shown as examples (this project's docs and tests, and the usual placeholders): never a production secret. */
const EXAMPLE_VALUES = new Set(
  [
    'test-superuser-token-0123456789',
    'test-superuser-token-second',
    '<token>',
    '<printed token>',
    '…',
    '...',
    'your-token-here',
    'your-secret-here',
    'changeme',
    'change-me',
  ].map((value) => value.toLowerCase()),
);

/** Why `value` is too weak to be a production secret, or undefined when it is fit. */
export function secretWeakness(value: string): string | undefined {
  if (EXAMPLE_VALUES.has(value.trim().toLowerCase())) return 'is an example value';
  if (value.length < MIN_SECRET_LENGTH) return `is ${value.length} characters long; use at least ${MIN_SECRET_LENGTH}`;
  const distinct = new Set(value).size;
  if (distinct < 6) return `uses only ${distinct} different character${distinct === 1 ? '' : 's'}`;
  const period = repeatingUnit(value);
  if (period) return `repeats ${JSON.stringify(value.slice(0, period))}`;
  if (sequential(value)) return 'is mostly runs of consecutive characters (abcd…, 1234…)';
  if (stuttering(value)) return 'is mostly runs of one repeated character';
  if (wordy(value)) return 'is made of common words, not random characters';
  // A Shannon estimate over the secret's own characters: 32 random hex digits score about 115 bits, a base64url token
  // of 32 characters about 150; a long value drawn from a handful of characters scores far less.
  const bits = estimatedBits(value);
  if (bits < 75) return `has about ${Math.round(bits)} bits of entropy; use a random value of at least 128 bits (openssl rand -hex 32)`;
  return undefined;
}

/** The length of the shortest unit `value` is a repetition of (at least twice), if any. */
function repeatingUnit(value: string): number | undefined {
  for (let period = 1; period <= value.length / 2; period++) {
    let repeats = true;
    for (let i = period; i < value.length && repeats; i++) if (value[i] !== value[i - period]) repeats = false;
    if (repeats) return period;
  }
  return undefined;
}

/** Two thirds of the neighbouring characters step by one code point (`abcdef…`, `987654…`, `0123…`). */
function sequential(value: string): boolean {
  let steps = 0;
  for (let i = 1; i < value.length; i++) if (Math.abs(value.charCodeAt(i) - value.charCodeAt(i - 1)) === 1) steps++;
  return steps > ((value.length - 1) * 2) / 3;
}

/** Half of the characters repeat the one before (`aaaaabbbbbccccc…`); random hex does so one time in sixteen. */
function stuttering(value: string): boolean {
  let repeats = 0;
  for (let i = 1; i < value.length; i++) if (value[i] === value[i - 1]) repeats++;
  return repeats > (value.length - 1) / 2;
}

/** Fewer than 16 letters are left once the common words, digits and separators are taken out. */
function wordy(value: string): boolean {
  let rest = value.toLowerCase().replace(/[^a-z]/g, ' ');
  for (const word of COMMON_WORDS) if (word.length > 2) rest = rest.split(word).join(' ');
  const letters = rest.replace(/\b(a|to|me|my|of|it)\b/g, ' ').replace(/\s+/g, '');
  const original = value.replace(/[^a-z]/gi, '').length;
  // Only values that are mostly letters can be "words"; a hex or base64 token keeps most of its letters.
  return original >= 16 && letters.length < 16 && letters.length < original / 2;
}

function estimatedBits(value: string): number {
  const counts = new Map<string, number>();
  for (const char of value) counts.set(char, (counts.get(char) ?? 0) + 1);
  let perChar = 0;
  for (const count of counts.values()) {
    const p = count / value.length;
    perChar -= p * Math.log2(p);
  }
  return perChar * value.length;
}
