import { expect } from 'chai';
import { auditLinks } from '../../../server/assistant/linkAudit.ts';
import { linkGuard, onSite, removeForeignLinks } from '../../../server/assistant/linkGuard.ts';
import { safeToQuote } from '../../../server/assistant/offline/safety.ts';
import { asSuperuser, type TestServer } from '../../helpers/server.ts';
import { SITE, startAssistantServer } from './demoVenue.ts';
import { sseChunks, streamedText, userMessage } from './helpers.ts';

/**
 * Issue 32 §1: the link guard reads every candidate link as a browser resolves it — backslashes, `//host`,
 * white space and control characters, HTML attributes, entities, percent-encoding, scripting schemes,
 * autolinks, bare URLs, reference-style links — and keeps only those on the site's origin, in the streamed
 * answer (a link split across chunks included) and in the whole one (chat platforms, the demo route).
 */
const ORIGINS = new Set([SITE]);

/** Each must go: the label, when there is one, stays. */
const HOSTILE: Array<[string, string]> = [
  ['backslash after the slash', '[win](/\\evil.example/prize)'],
  ['two backslashes', '[win](\\\\evil.example/prize)'],
  ['an escaped slash', '[win](/\\/evil.example/prize)'],
  ['protocol-relative', '[win](//evil.example/prize)'],
  ['protocol-relative in spaces', '[win](  //evil.example/prize  )'],
  ['protocol-relative in angle brackets, with a title', '[win](<//evil.example/prize> "Prize")'],
  ['another origin', '[win](https://evil.example/prize)'],
  ['upper case', '[win](HTTPS://EVIL.EXAMPLE/prize)'],
  ['backslashes after the scheme', '[win](https:\\\\evil.example/prize)'],
  ['the site as user name', '[win](https://venue.example@evil.example/prize)'],
  ['the site as encoded user name', '[win](https://venue.example%2F@evil.example/prize)'],
  ['the site as a subdomain', '[win](https://venue.example.evil.example/prize)'],
  ['the site over plain http', '[win](http://venue.example/en/shows)'],
  ['a percent-encoded host', '[win](https://%65vil.example/prize)'],
  ['percent-encoded slashes', '[win](/%2F%2Fevil.example/prize)'],
  ['a percent-encoded backslash', '[win](/%5Cevil.example/prize)'],
  ['decimal entities', '[win](&#47;&#47;evil.example/prize)'],
  ['hex entities', '[win](&#x2F;&#x2f;evil.example/prize)'],
  ['named entities', '[win](&sol;&sol;evil.example/prize)'],
  ['an entity colon', '[win](https&colon;//evil.example/prize)'],
  ['javascript:', '[win](javascript:alert(document.cookie))'],
  ['JavaScript: in mixed case', '[win](JaVaScRiPt:alert(1))'],
  ['a tab inside the scheme', '[win](java\tscript:alert(1))'],
  ['a line end inside the scheme', '[win](java\nscript:alert(1))'],
  ['an entity tab inside the scheme', '[win](java&Tab;script:alert(1))'],
  ['an entity in the scheme', '[win](&#106;avascript:alert(1))'],
  ['a percent-encoded scheme', '[win](%6Aavascript:alert(1))'],
  ['a control character before the scheme', '[win](\u0001javascript:alert(1))'],
  ['a zero-width space before the scheme', '[win](\u200bjavascript:alert(1))'],
  ['data:', '[win](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)'],
  ['vbscript:', '[win](vbscript:msgbox(1))'],
  ['an image', '![win](https://evil.example/pixel.png)'],
  ['a label with brackets', '[win [now]](//evil.example/prize)'],
  ['a reference-style link', '[win][1]\n\n[1]: //evil.example/prize'],
  ['a reference in angle brackets, with a title', '[win][prize]\n\n[prize]: <https://evil.example/prize> "Prize"'],
  ['a collapsed reference, its target on the next line', '[win][]\n\n[win]:\n   /\\evil.example/prize'],
  ['an autolink', '<https://evil.example/prize>'],
  ['a javascript: autolink', '<javascript:alert(1)>'],
  ['an unquoted href', '<a href=//evil.example/prize>win</a>'],
  ['a double-quoted href', '<a href="//evil.example/prize">win</a>'],
  ['a single-quoted href', "<a href='https://evil.example/prize'>win</a>"],
  ['spaces around =', '<a href = "//evil.example/prize" >win</a>'],
  ['upper-case tag and attribute', '<A HREF=//evil.example/prize>win</A>'],
  ['a slash between name and attribute', '<a/href=//evil.example/prize>win</a>'],
  ['a > inside an earlier attribute', '<a title=">" href=//evil.example/prize>win</a>'],
  ['entities in an href', '<a href="&#47;&#47;evil.example/prize">win</a>'],
  ['an entity line end in an href', '<a href="java&#10;script:alert(1)">win</a>'],
  ['a leading space in an href', '<a href=" javascript:alert(1)">win</a>'],
  ['src', '<img src=//evil.example/pixel.png>'],
  ['srcset', '<img srcset="/pixel.png 1x, //evil.example/pixel.png 2x">'],
  ['action', '<form action=https://evil.example/prize>win</form>'],
  ['formaction', '<button formaction=//evil.example/prize>win</button>'],
  ['a meta refresh', '<meta http-equiv="refresh" content="0;url=//evil.example/prize">'],
  ['an event handler', '<a href="/en/shows" onclick="location=\'//evil.example/prize\'">win</a>'],
  ['a bare URL', 'https://evil.example/prize'],
  ['a bare www.', 'www.evil.example/prize'],
  ['a bare URL in parentheses', '(https://evil.example/prize)'],
  ['a bare URL with the site as user name', 'https://venue.example@evil.example/prize'],
  ['a bare URL with the site before a bracket', 'https://venue.example]@evil.example/prize'],
  ['a bare URL with an entity colon', 'https&#58;//evil.example/prize'],
  ['a bare protocol-relative URL', '//evil.example/prize'],
  ['a bare ftp: URL', 'ftp://evil.example/prize'],
];

/** Each must stay as it is. */
const LEGITIMATE: Array<[string, string]> = [
  ['absolute', `[Our shows](${SITE}/en/shows)`],
  ['absolute, Vietnamese', `[Các chương trình](${SITE}/vi/shows)`],
  ['relative', '[Our shows](/en/shows)'],
  ['relative, locale-prefixed show page', '[The show](/vi/shows/saigon-chronicles)'],
  ['relative without a slash', '[Our shows](en/shows)'],
  ['in angle brackets, with a title', `[Book](<${SITE}/en/book/saigon-chronicles-2026-11-28> "Book")`],
  ['host in capitals, default port, query and fragment', '[Book](https://VENUE.example:443/en/book?guests=4&day=sat#seats)'],
  ['reference-style', `[Our shows][shows]\n\n[shows]: ${SITE}/en/shows`],
  ['an autolink', `<${SITE}/en/shows>`],
  ['an anchor', '<a href="/en/inquiries">Ask us</a>'],
  ['an unquoted anchor', `<a href=${SITE}/vi/book/lotus-2026-11-29>Đặt vé</a>`],
  ['a bare URL', `Book at ${SITE}/en/book/saigon-chronicles-2026-11-28.`],
  ['no link at all', '**Dress code** — smart casual (a jacket is welcome), doors at 19:00; Q&A after, R&D <3, a < b > c.'],
  ['brackets that are no link', '[the show](starts at 19:00) and [note]: smart casual'],
];

async function streamed(deltas: string[], removed: string[] = []): Promise<string[]> {
  const transform = linkGuard({ siteOrigins: async () => ORIGINS, onRemoved: (url) => removed.push(url) })({ tools: {}, stopStream: () => {} });
  const writer = transform.writable.getWriter();
  const read = (async () => {
    const out: string[] = [];
    for await (const part of transform.readable as unknown as AsyncIterable<{ type: string; text?: string }>) if (part.type === 'text-delta') out.push(part.text!);
    return out;
  })();
  for (const text of deltas) await writer.write({ type: 'text-delta', id: 't', text } as never);
  await writer.write({ type: 'text-end', id: 't' } as never);
  await writer.close();
  return read;
}

/** Nothing of the foreign target is left: its host, a scripting scheme, an event handler. */
const FOREIGN = /evil|javascript|vbscript|data:|alert|msgbox|onclick/i;
const words = (text: string) => text.match(/\S+\s*|\s+/g)!;

describe('assistant: the link guard reads links as a browser does (issue 32)', function () {
  this.timeout(180_000);

  describe('one candidate at a time', () => {
    for (const [name, link] of HOSTILE) {
      it(`removes ${name}: ${JSON.stringify(link)}`, async () => {
        // (A reference definition takes the rest of its line: the text goes on on the next.)
        const text = `Hello. ${link}\nBye.`;
        const removed: string[] = [];
        const whole = removeForeignLinks(text, ORIGINS, (url) => removed.push(url));
        expect(whole, 'whole').to.not.match(FOREIGN);
        expect(removed, 'reported').to.not.be.empty;
        expect(whole).to.match(/^Hello\. /).and.match(/\nBye\.$/);
        if (/^!?\[win/.test(link) || /^<a[\s/]/i.test(link)) expect(whole).to.include('win');
        // Streamed word by word, a character at a time, and cut anywhere in two.
        const splits = [words(text), [...text], ...Array.from({ length: text.length - 1 }, (_, i) => [text.slice(0, i + 1), text.slice(i + 1)])];
        for (const deltas of splits) expect((await streamed(deltas)).join(''), JSON.stringify(deltas)).to.not.match(FOREIGN);
      });
    }

    for (const [name, link] of LEGITIMATE) {
      it(`keeps ${name}: ${JSON.stringify(link)}`, async () => {
        const text = `Hello. ${link} Bye.`;
        const removed: string[] = [];
        expect(removeForeignLinks(text, ORIGINS, (url) => removed.push(url))).to.equal(text);
        for (const deltas of [words(text), [...text]]) expect((await streamed(deltas, removed)).join('')).to.equal(text);
        expect(removed).to.deep.equal([]);
      });
    }

    it('judges a target with WHATWG URL against the site’s origin, whatever the reading', () => {
      for (const [, link] of LEGITIMATE.slice(0, 5)) expect(onSite(/\((.*)\)/.exec(link)![1], ORIGINS), link).to.equal(true);
      for (const target of ['/\\evil.example', '//evil.example', ' //evil.example', '&#47;/evil.example', '%2F%2Fevil.example', 'java\nscript:x', 'mailto:x@evil.example']) {
        expect(onSite(target, ORIGINS), target).to.equal(false);
      }
      // Without route data a relative path is still the site's own, any absolute URL is not.
      expect(onSite('/en/shows', new Set())).to.equal(true);
      expect(onSite(`${SITE}/en/shows`, new Set())).to.equal(false);
      expect(onSite('/\\evil.example', new Set())).to.equal(false);
    });

    it('the audit counts no such target as one of the site’s paths', () => {
      const routes = { named: {}, showUrls: {}, bookingUrls: {}, all: [`${SITE}/en/shows`] };
      const audit = auditLinks(`[a](${SITE}/en/shows) [b](/\\evil.example/x) [c](/en/backstage)`, routes);
      expect(audit).to.deep.include({ checked: 2, invalid: ['/en/backstage'], links: [`${SITE}/en/shows`] });
    });

    it('a document quoted by the offline model loses them too', () => {
      const body = ['Smart casual.', ...HOSTILE.map(([, link]) => `Jackets ${link} welcome.`), `See [our shows](${SITE}/en/shows).`].join('\n');
      const quoted = safeToQuote(body, new Set([`${SITE}/en/shows`]));
      expect(quoted).to.not.match(FOREIGN);
      expect(quoted).to.include('Smart casual.').and.include(`[our shows](${SITE}/en/shows)`);
    });
  });

  describe('over /llm/chat and /api/ai/demo, from a published knowledge document', () => {
    let server: TestServer;
    before(async () => {
      server = await startAssistantServer({ llmChatRateLimitPerMinute: 10_000 });
    });
    after(() => server?.close());

    it('the streamed answer and the whole one carry none of the document’s foreign links, and keep its own', async () => {
      const list = await server.request('GET', '/api/ai/knowledge?locale=en&limit=100', { headers: asSuperuser });
      const doc = list.body.items.find((item: { topic: string; status: string }) => item.topic === 'dress-code' && item.status === 'PUBLISHED');
      expect(doc, 'the demo dress code').to.be.an('object');
      // Within the first lines (the offline model quotes the opening of a document), one candidate a line.
      const body = [
        'Smart casual is the rule for every show.',
        '- Jackets [are welcome](/\\evil.example/a) in the hall.',
        '- Shoes <a href=//evil.example/b>closed</a> for the VIP booths.',
        '- Hats [optional][1] all evening.',
        '- Scarves <a href="&#47;&#47;evil.example/c">fine</a> too.',
        '- Sandals [never](java\tscript:alert(1)) on stage.',
        '- Shirts ![collared](https://evil.example/d.png) please, <https://evil.example/e> or //evil.example/f.',
        `- Everything else: [our shows](/en/shows) and ${SITE}/en/shows.`,
        '',
        '[1]: //evil.example/g',
      ].join('\n');
      const patched = await server.request('PATCH', `/api/ai/knowledge/${doc.id}`, { headers: asSuperuser, body: { body } });
      expect(patched.status, patched.text).to.equal(200);
      expect(patched.body.status).to.equal('PUBLISHED');

      const res = await fetch(`${server.baseUrl}/llm/chat`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ locale: 'en', messages: [userMessage('What is the dress code?')] }) });
      expect(res.status).to.equal(200);
      const { chunks, done } = sseChunks(await res.text());
      expect(done).to.equal(true);
      const deltas = chunks.filter((chunk) => chunk.type === 'text-delta');
      const text = streamedText(chunks);
      // The document was quoted, streamed in many pieces, and lost only the foreign targets.
      expect(text).to.include('Smart casual is the rule for every show.').and.include('Jackets are welcome in the hall.').and.include('closed');
      expect(deltas.length).to.be.greaterThan(10);
      expect(text).to.not.match(FOREIGN);
      expect(text).to.include('[our shows](/en/shows)').and.include(`${SITE}/en/shows`);

      // The whole answer (chat platforms, the demo route) is read the same way.
      const demo = await server.request('POST', '/api/ai/demo', { body: { prompt: 'What is the dress code?' } });
      expect(demo.status).to.equal(200);
      expect(demo.body.text).to.include('Jackets are welcome in the hall.').and.not.match(FOREIGN);
    });
  });
});
