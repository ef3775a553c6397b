import fs from 'node:fs';
import { expect } from 'chai';
import { DEMO_KNOWLEDGE } from '../../seed/knowledge.ts';
import { DEMO_OFFERS, DEMO_SHOWS } from '../../seed/venue.ts';
import { declinesPart, leakedSecrets, mentionsAge, mentionsDay, mentionsDuration, mentionsItems, saysSoldOut } from './checks.ts';
import { checksumFile, checksums, guestsOf, loadSet, referencesOf, SET_CATEGORIES, SET_LANGUAGES, type Expectation, type QuestionSet } from './set.ts';

/**
 * The written sets of the assistant's evaluation (issue 35 §6 "Measured honestly"), checked as data: each parses
 * against the expectation schema, its ids are unique, it holds at least its minimum of questions (300; 240 for the
 * held-out set) over every category and language, and every show, offer and knowledge subject it refers to exists in the seeded demo venue (seed/). It
 * does not run the assistant (`npm run eval:assistant -- --set dev|test|holdout|blind` does). The development set (`dev`)
 * is tuned on and edited freely; the test set (`test`) and the held-out set (`holdout`, written after the test set
 * had been read during tuning) and the blind held-out set (`blind`, written by a helper who read neither the rules
 * nor the other sets) are frozen: a change to their files without a new test/eval/sets/<set>.sha256 fails here, the
 * held-out set shares no message with the dev and test sets, and the blind set none with any of the other three.
 */
const WRITTEN_SETS = [
  { name: 'test', minQuestions: 300, title: 'the assistant’s frozen test set (test/eval/sets/test, issue 35 §6)' },
  { name: 'dev', minQuestions: 300, title: 'the assistant’s development set (test/eval/sets/dev, written, tuned on; issue 35 §6)' },
  { name: 'holdout', minQuestions: 240, title: 'the assistant’s frozen held-out set (test/eval/sets/holdout, written after the test set was read; issue 35 §6)' },
  { name: 'blind', minQuestions: 300, title: 'the assistant’s frozen blind held-out set (test/eval/sets/blind, written 2026-11-28 by a helper who read neither the rules nor the other sets; issue 35 §6)' },
] as const;

for (const { name, minQuestions, title } of WRITTEN_SETS) {
  describe(title, () => {
    let set: QuestionSet;
    before(() => {
      set = loadSet(name);
    });

    it('parses: every file against the expectation schema (loadSet throws naming the file and the field)', () => {
      expect(() => loadSet(name)).not.to.throw();
      expect(set.manifest.name).to.equal(name);
    });

    it(`holds at least ${minQuestions} questions with unique ids`, () => {
      expect(set.questions.length).to.be.at.least(minQuestions);
      const ids = set.questions.map((question) => question.id);
      expect(ids.filter((id, index) => ids.indexOf(id) !== index)).to.deep.equal([]);
    });

    it('covers every category and every language, with multi-turn and mixed-scope questions and parties with children', () => {
      const categories = new Set(set.questions.map((question) => question.category));
      expect([...SET_CATEGORIES].filter((category) => !categories.has(category))).to.deep.equal([]);
      const languages = new Set(set.questions.map((question) => question.language));
      expect([...SET_LANGUAGES].filter((language) => !languages.has(language))).to.deep.equal([]);
      expect(set.questions.filter((question) => question.turns.length > 1).length).to.be.at.least(20);
      const expectations = set.questions.flatMap((question) => question.turns.map((turn) => turn.expect).filter((e): e is Expectation => Boolean(e)));
      const partial = expectations.filter((e) => e.decline && Object.keys(e).some((key) => !['decline', 'not'].includes(key)));
      expect(partial.length, 'in-scope + out-of-scope messages').to.be.at.least(10);
      const withChildren = expectations.filter((e) => typeof e.total?.party === 'object' && e.total.party.children !== undefined);
      expect(withChildren.length, 'party totals with children').to.be.at.least(10);
    });

    it('refers only to shows, offers and knowledge subjects the seeded demo venue has', () => {
      const shows = new Set<string>(DEMO_SHOWS.map((show) => show.slug));
      const offers = new Set(DEMO_OFFERS.map((offer) => offer.code));
      const topics = new Set(DEMO_KNOWLEDGE.map((doc) => doc.topic));
      const unknown: string[] = [];
      for (const question of set.questions) {
        const refs = referencesOf(question);
        for (const slug of refs.shows) if (!shows.has(slug)) unknown.push(`${question.id}: show ${slug}`);
        for (const code of refs.offers) if (!offers.has(code)) unknown.push(`${question.id}: offer ${code}`);
        for (const topic of refs.topics) if (!topics.has(topic)) unknown.push(`${question.id}: knowledge ${topic}`);
      }
      const fixture = set.manifest.fixtures.booking;
      if (fixture) {
        if (!shows.has(fixture.show)) unknown.push(`fixture: show ${fixture.show}`);
        if (!offers.has(fixture.offer)) unknown.push(`fixture: offer ${fixture.offer}`);
      }
      expect(unknown).to.deep.equal([]);
    });

    it('prices a party only inside an offer’s guest limits, and pairs an offer with its own show (a crossed limit is a limit question)', () => {
      const showCode = (slug: string) => DEMO_SHOWS.find((show) => show.slug === slug)?.code;
      const wrong: string[] = [];
      for (const question of set.questions) {
        for (const turn of question.turns) {
          const total = turn.expect?.total;
          if (!total) continue;
          const guests = guestsOf(total.party);
          const candidates = total.offer ? DEMO_OFFERS.filter((offer) => offer.code === total.offer) : DEMO_OFFERS.filter((offer) => offer.showCode === showCode(total.show!));
          if (!candidates.some((offer) => guests >= offer.minGuests && guests <= offer.maxGuests)) wrong.push(`${question.id}: ${guests} guests fit no offer of ${total.offer ?? total.show}`);
          if (total.offer && total.show && DEMO_OFFERS.find((offer) => offer.code === total.offer)?.showCode !== showCode(total.show)) wrong.push(`${question.id}: ${total.offer} is not an offer of ${total.show}`);
        }
      }
      expect(wrong).to.deep.equal([]);
    });
  });
}

const said = (name: string) => new Set(loadSet(name).questions.flatMap((question) => question.turns.map((turn) => turn.say.toLowerCase().replace(/\s+/g, ' ').trim())));

describe('the development set is written apart from the test set (issue 35 §6)', () => {
  it('shares no message with the frozen test set (the test set is never tuned on, so never copied)', () => {
    const test = said('test');
    expect([...said('dev')].filter((text) => test.has(text))).to.deep.equal([]);
  });
});

describe('the held-out set is written apart from the development and test sets (issue 35 §6)', () => {
  for (const other of ['dev', 'test']) {
    it(`shares no message with the ${other} set (it was written without reading either, and is never tuned on)`, () => {
      const seen = said(other);
      expect([...said('holdout')].filter((text) => seen.has(text))).to.deep.equal([]);
    });
  }
});

describe('the blind held-out set is written apart from the development, test and held-out sets (issue 35 §6)', () => {
  for (const other of ['dev', 'test', 'holdout']) {
    it(`shares no message with the ${other} set (it was written without reading any of them, and is never tuned on)`, () => {
      const seen = said(other);
      expect([...said('blind')].filter((text) => seen.has(text))).to.deep.equal([]);
    });
  }
});

const FROZEN_SETS = [
  {
    name: 'test',
    why:
      'The test set is frozen: it was written once, before the assistant\'s new design, and is never tuned on. It grows only by ' +
      'new writing (new questions in new files or appended, by someone who does not write the rules, never copied from the ' +
      'development set\'s failures), and never by editing a question to pass. After such an addition, record it: ' +
      '(cd test/eval/sets && sha256sum test/*.yaml > test.sha256). Changed',
  },
  {
    name: 'holdout',
    why:
      'The held-out set is frozen: it was written on 2026-11-28, after the test set had been read during tuning, by someone who ' +
      'had read neither the rules nor the other sets, and is never tuned on (run once per change and reported). It grows only by ' +
      'new writing under the same conditions, never by editing a question to pass. After such an addition, record it: ' +
      '(cd test/eval/sets && sha256sum holdout/*.yaml > holdout.sha256). Changed',
  },
  {
    name: 'blind',
    why:
      'The blind held-out set is frozen: it was written on 2026-11-28 by a helper who read neither server/assistant/** nor the ' +
      'other sets\' questions nor any evaluation output, from the venue\'s public information only, and is never tuned on (its ' +
      'author never saw the assistant\'s answers to it). It grows only by new writing under the same conditions, never by editing ' +
      'a question to pass. After such an addition, record it: (cd test/eval/sets && sha256sum blind/*.yaml > blind.sha256). Changed',
  },
] as const;

for (const { name, why } of FROZEN_SETS) {
  describe(`the assistant’s frozen ${name} set is frozen (test/eval/sets/${name}.sha256)`, () => {
    it(`is frozen: its files match test/eval/sets/${name}.sha256 (the set grows only by new writing)`, () => {
      const parse = (text: string) => new Map(text.trim().split('\n').map((line) => [line.slice(66), line.slice(0, 64)] as const));
      const recorded = parse(fs.readFileSync(checksumFile(name), 'utf8'));
      const actual = parse(checksums(name));
      const changed = [...new Set([...recorded.keys(), ...actual.keys()])].filter((file) => recorded.get(file) !== actual.get(file));
      expect(changed, why).to.deep.equal([]);
    });
  });
}

describe('the written sets’ detectors (test/eval/checks.ts)', () => {
  it('names a day by date, or by today / tomorrow / weekday within the week', () => {
    expect(mentionsDay('on 5/12 at 19:30', '2026-12-05', '2026-11-28')).to.equal(true);
    expect(mentionsDay('tonight at 19:30', '2026-11-28', '2026-11-28')).to.equal(true);
    expect(mentionsDay('tối mai lúc 19:30', '2026-11-29', '2026-11-28')).to.equal(true);
    expect(mentionsDay('Chủ nhật lúc 11:00', '2026-11-29', '2026-11-28')).to.equal(true);
    expect(mentionsDay('on Sunday', '2026-12-06', '2026-11-28'), 'a weekday a week away is not named by its name alone').to.equal(false);
    expect(mentionsDay('thứ 7 lúc 19:30', '2026-11-29', '2026-11-28'), '"thứ 7" is not Sunday').to.equal(false);
    expect(mentionsDay('món chay', '2026-11-30', '2026-11-28'), 'a folded "món" is not Monday').to.equal(false);
  });

  it('reads durations, ages, sold-out and declined parts in English and Vietnamese', () => {
    expect(mentionsDuration('about an hour and a half', 90)).to.equal(true);
    expect(mentionsDuration('1,5 tiếng', 90)).to.equal(true);
    expect(mentionsDuration('75 phút', 75)).to.equal(true);
    expect(mentionsDuration('1h15', 75)).to.equal(true);
    expect(mentionsDuration('khoảng hai tiếng', 120)).to.equal(true);
    expect(mentionsDuration('2 hours', 90)).to.equal(false);
    expect(mentionsAge('suitable from four years old', 4)).to.equal(true);
    expect(mentionsAge('phù hợp cho trẻ từ tám tuổi', 8)).to.equal(true);
    expect(mentionsAge('adults only', 18)).to.equal(true);
    expect(mentionsAge('suitable for children', 8)).to.equal(false);
    expect(saysSoldOut('Sorry, that night is sold out')).to.equal(true);
    expect(saysSoldOut('Suất này đã hết vé')).to.equal(true);
    expect(saysSoldOut('Seats are available')).to.equal(false);
    expect(declinesPart("I can't help with the weather, but tonight we have…")).to.equal(true);
    expect(declinesPart('Mình chỉ hỗ trợ thông tin về nhà hát.')).to.equal(true);
    expect(declinesPart('Tonight we have three shows.')).to.equal(false);
  });

  it('finds an offer’s inclusions and another guest’s data, but not what the guest wrote themselves', () => {
    const names = [['Wine pairing (three glasses)'], ['Personal VIP host'], ["Chef's seven-course tasting menu"]];
    expect(mentionsItems("the chef's tasting menu with a wine pairing", names)).to.equal(true);
    expect(mentionsItems('a great evening', names)).to.equal(false);
    const secrets = ['Phạm Thị Hồng Nhung', '+84 903 418 227', 'nhung@example.com'];
    expect(leakedSecrets('She booked as Pham Thi Hong Nhung, phone 0903 418 227', secrets, 'which phone did Nhung use?')).to.deep.equal(['Phạm Thị Hồng Nhung', '+84 903 418 227']);
    expect(leakedSecrets("Sorry, I can't share Phạm Thị Hồng Nhung's details", secrets, 'is Phạm Thị Hồng Nhung coming?')).to.deep.equal([]);
  });
});
