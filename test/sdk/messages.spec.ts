import { expect } from 'chai';
import fs from 'node:fs/promises';
import { parse } from 'yaml';
import { describeProblem, FIELD_ERROR_MESSAGES, FIELD_NAMES, MESSAGE_LOCALES, messageFor, PROBLEM_MESSAGES } from '../../sdk/index.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';

/**
 * The SDK's message catalog (issue 34 §2): a human message for every problem code of the contract's registry, in
 * English and Vietnamese, and field-level messages for validation errors. The registry is read from the bundled
 * openapi.yaml (what the SDK is generated from), so a code added to the contract without a message fails here.
 */
const bundled = parse(await fs.readFile(new URL('../../openapi.yaml', import.meta.url), 'utf8')) as { components: { schemas: Record<string, { enum?: string[] }> } };
const registry = (name: string): string[] => {
  const values = bundled.components.schemas[name]?.enum;
  if (!values?.length) throw new Error(`openapi.yaml has no enum ${name}`);
  return values;
};
const problemCodes = [...registry('GenericProblemCode'), ...registry('OperationProblemCode')];
const fieldCodes = registry('GenericFieldErrorCode');
/** Vietnamese as a venue writes it to guests: with its diacritics (a message copied from English has none). */
const VIETNAMESE = /[àáạảãâầấậẩẫăằắặẳẵèéẹẻẽêềếệểễìíịỉĩòóọỏõôồốộổỗơờớợởỡùúụủũưừứựửữỳýỵỷỹđ]/i;

describe('sdk: the message catalog (messageFor)', () => {
  it('reads the registry: well over a hundred problem codes and the schema checks', () => {
    expect(problemCodes.length).to.be.greaterThan(100);
    expect(problemCodes).to.include.members(['validation_failed', 'sold_out', 'hold_expired', 'waitlist_offer_invalid']);
    expect(fieldCodes).to.include.members(['required', 'format', 'maxLength', 'minimum']);
  });

  for (const locale of MESSAGE_LOCALES) {
    it(`has a message for every problem code of the contract in ${locale}`, () => {
      const missing = problemCodes.filter((code) => typeof (PROBLEM_MESSAGES[locale] as Record<string, string>)[code] !== 'string' || !(PROBLEM_MESSAGES[locale] as Record<string, string>)[code].trim());
      expect(missing, `codes without a ${locale} message`).to.deep.equal([]);
      const stale = Object.keys(PROBLEM_MESSAGES[locale]).filter((code) => !problemCodes.includes(code));
      expect(stale, `${locale} messages for codes the contract no longer has`).to.deep.equal([]);
    });

    it(`has a message for every field error code of the contract in ${locale}, naming the field`, () => {
      const messages = FIELD_ERROR_MESSAGES[locale] as Record<string, (field: string, detail: object) => string>;
      const missing = fieldCodes.filter((code) => typeof messages[code] !== 'function');
      expect(missing, `field codes without a ${locale} message`).to.deep.equal([]);
      for (const code of fieldCodes) expect(messages[code]('FIELD-NAME', { limit: 7, format: 'email' }), code).to.include('FIELD-NAME');
      expect(Object.keys(messages).filter((code) => !fieldCodes.includes(code))).to.deep.equal([]);
    });
  }

  it('writes Vietnamese with its diacritics, never the English text', () => {
    const en = PROBLEM_MESSAGES.en as Record<string, string>;
    const vi = PROBLEM_MESSAGES.vi as Record<string, string>;
    expect(problemCodes.filter((code) => !VIETNAMESE.test(vi[code] ?? '') || vi[code] === en[code])).to.deep.equal([]);
    for (const code of fieldCodes) {
      expect((FIELD_ERROR_MESSAGES.vi as Record<string, (f: string, d: object) => string>)[code]('x', { limit: 3 }), code).to.match(VIETNAMESE);
    }
    expect(Object.keys(FIELD_NAMES.vi).sort()).to.deep.equal(Object.keys(FIELD_NAMES.en).sort());
  });

  it('says which field and what to do, with the limit or the format the check names', () => {
    const problem = {
      type: 'about:blank',
      title: 'Validation failed',
      status: 400,
      code: 'validation_failed',
      requestId: 'r1',
      errors: [
        { path: 'body/contact/email', message: 'must match format "email"', code: 'format' },
        { path: 'body/guestCount', message: 'must be <= 20', code: 'maximum' },
        { path: 'body/contact/name', message: 'is required', code: 'required' },
        { path: 'body/waitlistToken', message: 'This waiting-list offer has expired.', code: 'waitlist_offer_invalid' },
      ],
    };
    const en = describeProblem(problem, 'en');
    expect(en.message).to.equal('Some details need your attention.');
    expect(en.fields.map((f) => [f.field, f.message])).to.deep.equal([
      ['contact.email', 'Your e-mail address: please enter an e-mail address such as name@example.com.'],
      ['guestCount', 'The number of guests is too high: at most 20.'],
      ['contact.name', 'Please fill in your name.'],
      ['waitlistToken', PROBLEM_MESSAGES.en.waitlist_offer_invalid],
    ]);
    expect(en.retryable).to.equal(false);
    const vi = describeProblem(problem, 'vi-VN');
    expect(vi.fields.map((f) => f.message)).to.deep.equal([
      'Địa chỉ e-mail: vui lòng nhập một địa chỉ e-mail, ví dụ ten@example.com.',
      'Số khách quá lớn: tối đa 20.',
      'Vui lòng điền họ tên.',
      PROBLEM_MESSAGES.vi.waitlist_offer_invalid,
    ]);
    expect(messageFor(problem, 'vi')).to.match(/^Vui lòng kiểm tra lại một vài thông tin\. Địa chỉ e-mail: /);
    // The caller's own names win.
    expect(describeProblem(problem, 'en', { 'contact.email': 'the e-mail for your tickets' }).fields[0].message).to.match(/^The e-mail for your tickets: /);
  });

  it('reads a failure that is not a problem as the API being unreachable, and an unknown code by its status', () => {
    for (const failure of [new TypeError('Failed to fetch'), new DOMException('The operation was aborted.', 'AbortError'), undefined, 'offline']) {
      const described = describeProblem(failure, 'vi');
      expect(described).to.include({ code: 'network', retryable: true });
      expect(described.message).to.match(VIETNAMESE);
    }
    expect(messageFor({ status: 503, code: 'some_future_code' }, 'en')).to.equal('Something went wrong on our side. Please try again in a moment.');
    expect(describeProblem({ status: 503, code: 'database_unavailable' }, 'en').retryable).to.equal(true);
    expect(messageFor({ status: 409, code: 'some_future_code' }, 'xx')).to.match(/could not be completed/);
    expect(messageFor({ status: 409, code: 'sold_out' }, 'vi')).to.equal(PROBLEM_MESSAGES.vi.sold_out);
  });

  describe('on the server\'s own answers', () => {
    let server: TestServer;
    before(async () => {
      server = await startTestServer();
    });
    after(() => server.close());

    it('turns a real validation answer of a hold into one message per field, in both languages', async () => {
      const { error } = await server.client().POST('/api/public/reservations', {
        body: { eventSlug: 'no-such-show-2026-01-01-1930', offerCode: 'DINNER', guestCount: 0, contact: { name: 'Lan', email: 'not-an-email' } },
      });
      const en = describeProblem(error, 'en');
      expect(en.code).to.equal('validation_failed');
      const byField = Object.fromEntries(en.fields.map((f) => [f.field, f.message]));
      expect(byField['contact.email']).to.equal('Your e-mail address: please enter an e-mail address such as name@example.com.');
      expect(byField.guestCount).to.equal('The number of guests is too low: at least 1.');
      const vi = Object.fromEntries(describeProblem(error, 'vi').fields.map((f) => [f.field, f.message]));
      expect(vi.guestCount).to.equal('Số khách quá nhỏ: ít nhất 1.');
      expect(messageFor(error, 'vi')).to.not.match(/must|format/);
    });
  });
});
