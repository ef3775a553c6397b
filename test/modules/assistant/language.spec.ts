import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { parse } from 'yaml';
import { z } from 'zod';
import { compileTemplate, LANGUAGE_DIR, lexicon, loadLexicon } from '../../../server/assistant/language/lexicon.ts';
import { understand, type Understanding } from '../../../server/assistant/offline/understand.ts';

/**
 * Issue 35 §1: the assistant's language is data. Each language's test sentences (server/assistant/language/tests)
 * are read as their intents say; the files load and every template compiles; every intent is phrased in every
 * language; and the code that understands and answers holds no phrase of its own.
 */
const NOW = new Date('2026-11-26T11:00:00Z');
const ZONE = 'Asia/Ho_Chi_Minh';

const TestFile = z
  .object({
    language: z.string(),
    tests: z.array(
      z
        .object({
          say: z.string(),
          // Empty only for a sentence that is all reference ("and the two after that?").
          intents: z.array(z.string()),
          not: z.array(z.string()).optional(),
          requests: z.number().int().optional(),
          party: z.object({ guests: z.number(), adults: z.number().optional(), children: z.number().optional(), childAges: z.array(z.number()).optional() }).strict().optional(),
          reference: z.object({ kind: z.string(), count: z.number().optional(), time: z.string().optional() }).strict().optional(),
        })
        .strict()
        .refine((test) => test.intents.length > 0 || test.reference !== undefined || test.not !== undefined, 'a test names its intents (or, for a reference alone, the reference; for a sentence read as none of some, those)'),
    ),
  })
  .strict();

/** Every intent a message is read as: its topics, subjects, declined subjects and the refusal's kind. */
function intentsOf(understood: Understanding): string[] {
  const refusal = understood.refusal === 'override' || understood.refusal === 'link' ? 'injection' : understood.refusal;
  return [...understood.topics, ...understood.knowledge, ...understood.declined, ...(refusal ? [refusal] : [])];
}

describe('assistant: the language as data (issue 35)', () => {
  const lex = lexicon();
  const testsDir = path.join(LANGUAGE_DIR, 'tests');

  for (const language of fs.readdirSync(testsDir).sort()) {
    for (const name of fs.readdirSync(path.join(testsDir, language)).filter((file) => file.endsWith('.yaml'))) {
      const file = TestFile.parse(parse(fs.readFileSync(path.join(testsDir, language, name), 'utf8')));
      describe(`tests/${language}/${name}`, () => {
        for (const test of file.tests) {
          it(test.say, () => {
            const understood = understand(test.say, NOW, ZONE);
            const read = intentsOf(understood);
            expect(read, `read as ${read.join(', ') || 'nothing'}`).to.include.members(test.intents);
            for (const intent of test.not ?? []) expect(read, `read as ${read.join(', ')}`).to.not.include(intent);
            if (test.requests !== undefined) expect(understood.requests).to.have.length(test.requests);
            if (test.party) expect(understood.party).to.deep.equal(test.party);
            if (test.reference) expect(understood.reference).to.deep.equal(test.reference);
          });
        }
      });
    }
  }

  it('every test names intents declared in intents.yaml', () => {
    for (const language of fs.readdirSync(testsDir)) {
      for (const name of fs.readdirSync(path.join(testsDir, language))) {
        const file = TestFile.parse(parse(fs.readFileSync(path.join(testsDir, language, name), 'utf8')));
        for (const test of file.tests) for (const intent of [...test.intents, ...(test.not ?? [])]) expect(lex.info(intent), `${language}/${name}: ${intent}`).to.not.equal(undefined);
      }
    }
  });

  it('every intent but the social ones is phrased in English and in Vietnamese, and has a test sentence', () => {
    const phrased = new Map<string, Set<string>>();
    const sentences = path.join(LANGUAGE_DIR, 'sentences');
    for (const language of fs.readdirSync(sentences)) {
      for (const name of fs.readdirSync(path.join(sentences, language))) {
        const data = parse(fs.readFileSync(path.join(sentences, language, name), 'utf8')) as { intents?: Record<string, unknown> };
        for (const intent of Object.keys(data.intents ?? {})) phrased.set(intent, new Set([...(phrased.get(intent) ?? []), language]));
      }
    }
    const tested = new Set<string>();
    for (const language of fs.readdirSync(testsDir)) {
      for (const name of fs.readdirSync(path.join(testsDir, language))) {
        for (const test of TestFile.parse(parse(fs.readFileSync(path.join(testsDir, language, name), 'utf8'))).tests) for (const intent of test.intents) tested.add(intent);
      }
    }
    for (const [intent] of lex.intents) {
      if (intent === 'policy') continue;
      expect([...(phrased.get(intent) ?? [])].sort(), intent).to.include.members(lex.info(intent)!.kind === 'social' ? ['en'] : ['en', 'vi']);
      expect(tested.has(intent), `${intent} has a test sentence`).to.equal(true);
    }
  });

  it('rejects a file that names an undeclared intent, a bad template or an unknown list', () => {
    const dir = fs.mkdtempSync(path.join(process.env.TMPDIR ?? '/tmp', 'language-'));
    try {
      fs.copyFileSync(path.join(LANGUAGE_DIR, 'intents.yaml'), path.join(dir, 'intents.yaml'));
      fs.mkdirSync(path.join(dir, 'sentences', 'en'), { recursive: true });
      const write = (text: string) => fs.writeFileSync(path.join(dir, 'sentences', 'en', 'x.yaml'), text);
      write('language: en\nintents:\n  karaoke: { cues: [sing] }\n');
      expect(() => loadLexicon(dir)).to.throw(/karaoke is not declared/);
      write('language: en\nintents:\n  prices: { templates: ["how (much"] }\n');
      expect(() => loadLexicon(dir)).to.throw(/expected \)/);
      write('language: en\nlists:\n  colours: [red]\n');
      expect(() => loadLexicon(dir)).to.throw(/unknown list colours/);
      write('language: en\nintents:\n  prices: { cues: [how much] }\n');
      expect(loadLexicon(dir).score(' how much is it ').scores.get('prices')).to.equal(1);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('templates: alternatives, optional parts, gaps and numbers', () => {
    expect(compileTemplate('(where|how) [can|do] i {any} book').test(' where can i possibly book ')).to.equal(true);
    expect(compileTemplate('(where|how) [can|do] i {any} book').test(' where i book ')).to.equal(true);
    expect(compileTemplate('(where|how) [can|do] i {any} book').test(' when can i book ')).to.equal(false);
    expect(compileTemplate('{n} times {n}').test(' what is 20 times 11 ')).to.equal(true);
    expect(compileTemplate('price*').test(' the prices ')).to.equal(true);
  });

  it('a cue claims its words: the longest phrase wins, shared by every intent that lists that very phrase', () => {
    // "mã giảm giá" (a discount code) holds "giá" (price); "khuyến mãi" holds "mãi".
    expect(lex.score(' ma giam gia ').scores.has('prices')).to.equal(false);
    expect(understand('khuyến mãi gì không', NOW, ZONE).days).to.equal(undefined);
  });

  it('understand.ts, compose.ts and model.ts hold no phrase list and no rule naming a sentence', () => {
    for (const file of ['understand.ts', 'compose.ts', 'model.ts']) {
      const source = fs.readFileSync(path.join(LANGUAGE_DIR, '..', 'offline', file), 'utf8').replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, '');
      // An array of three or more string literals is a phrase list.
      const lists = source.match(/\[\s*'[^']*'\s*,\s*'[^']*'\s*,\s*'[^']*'[^\]]*\]/g) ?? [];
      const phraseLists = lists.filter((list) => /'[a-z]+ [a-z]+'|'(?:how|what|when|where|price|book|gia|ve|cho)'/.test(list));
      expect(phraseLists, file).to.deep.equal([]);
      // A regular expression that alternates words is a phrase list too.
      const wordRegexes = source.match(/\/[^/\n]*\((?:\?:)?[a-z]{2,}(?: [a-z]+)*\|[a-z]{2,}[^/\n]*\//g) ?? [];
      expect(wordRegexes, file).to.deep.equal([]);
    }
  });
});
