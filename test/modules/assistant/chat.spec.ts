import { expect } from 'chai';
import { DateTime } from 'luxon';
import { DEMO_KNOWLEDGE, DEMO_OFFERS, DEMO_SHOWS } from '../../../seed/index.ts';
import type { TestServer } from '../../helpers/server.ts';
import { SITE, startAssistantServer } from './demoVenue.ts';
import { sseChunks, streamedText, userMessage } from './helpers.ts';

/**
 * The assistant's entry points over the demo venue, with the grounded offline model (the default without
 * MISTRAL_API_KEY): the website stream, the demo answer, the legacy route, the disabled runtime; the tools'
 * calls arrive at the assistant-safe routes like any client's.
 */
const vnd = (amount: number) => new Intl.NumberFormat('en-US').format(amount);
const viVnd = (amount: number) => new Intl.NumberFormat('vi-VN').format(amount);
const [chronicles, lotus, jazz] = DEMO_SHOWS;
const offer = (code: string) => DEMO_OFFERS.find((candidate) => candidate.code === code)!;
/** A published document's title and the start of its body, as an answer quoting it holds them. */
const quoted = (topic: string, locale: 'en' | 'vi') => {
  const doc = DEMO_KNOWLEDGE.find((candidate) => candidate.topic === topic && candidate.locale === locale)!;
  return [doc.title, doc.body.split('\n')[0].slice(0, 40)];
};

describe('assistant: /llm/chat, /api/ai/demo, legacy route (offline model, demo venue)', function () {
  this.timeout(180_000);
  let server: TestServer;

  before(async () => {
    server = await startAssistantServer({ llmChatRateLimitPerMinute: 10_000 });
  });
  after(() => server?.close());

  async function ask(prompt: string, locale?: string, history?: Array<{ role: 'user' | 'assistant'; text: string }>) {
    const res = await server.request('POST', '/api/ai/demo', { body: { prompt, ...(locale ? { locale } : {}), ...(history ? { history } : {}) } });
    expect(res.status, res.text).to.equal(200);
    expect(res.body.invalidLinks).to.deep.equal([]);
    for (const link of res.body.links) expect(link.startsWith(`${SITE}/`), link).to.equal(true);
    return res.body as { text: string; links: string[] };
  }

  describe('POST /llm/chat', () => {
    it('streams the AI SDK UI message stream over SSE: tool calls, the text, the link audit, finish', async () => {
      const res = await fetch(`${server.baseUrl}/llm/chat`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ id: 'chat-1', locale: 'en', trigger: 'submit-message', messages: [userMessage(`How much is ${chronicles.title.en}?`)] }),
      });
      expect(res.status).to.equal(200);
      expect(res.headers.get('content-type')).to.match(/^text\/event-stream/);
      expect(res.headers.get('x-vercel-ai-ui-message-stream')).to.equal('v1');
      expect(res.headers.get('access-control-allow-origin')).to.equal('*');
      const { chunks, done } = sseChunks(await res.text());
      expect(done).to.equal(true);
      expect(chunks[0].type).to.equal('start');
      const tools = chunks.filter((chunk) => chunk.type === 'tool-input-available').map((chunk) => chunk.toolName);
      expect(tools).to.include.members(['getSiteRoutes', 'listShows', 'getBookingOptions']);
      expect(chunks.filter((chunk) => chunk.type === 'tool-output-available')).to.have.length(tools.length);
      const text = streamedText(chunks);
      expect(text).to.include(vnd(offer('SGC-DINNER').pricePerGuestVnd));
      expect(text).to.include(`${SITE}/en/shows/${chronicles.slug}`);
      const audit = chunks.at(-2)!;
      expect(audit).to.deep.include({ type: 'data-link-audit', transient: true });
      expect(audit.data.invalid).to.deep.equal([]);
      expect(audit.data.checked).to.be.greaterThan(0);
      expect(chunks.at(-1)!.type).to.equal('finish');
    });

    it('the tools call the assistant-safe routes over HTTP (the route boundary sees them)', async () => {
      const before = server.logs.length;
      await fetch(`${server.baseUrl}/llm/chat`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ messages: [userMessage('Is there space on Saturday for 4 people?')] }) }).then((r) => r.text());
      const paths = server.logs.slice(before).filter((line) => line.msg === 'request').map((line) => line.path);
      expect(paths).to.include.members(['/api/ai/customer-support/catalog/routes', '/api/ai/customer-support/catalog/shows', '/api/ai/customer-support/catalog/availability', '/llm/chat']);
    });

    it('echoes Origin when there is one', async () => {
      const res = await fetch(`${server.baseUrl}/llm/chat`, { method: 'POST', headers: { 'content-type': 'application/json', origin: 'https://www.venue.example' }, body: JSON.stringify({ messages: [userMessage('hi')] }) });
      await res.text();
      expect(res.headers.get('access-control-allow-origin')).to.equal('https://www.venue.example');
      const preflight = await fetch(`${server.baseUrl}/llm/chat`, { method: 'OPTIONS', headers: { origin: 'https://any.example', 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' } });
      expect(preflight.headers.get('access-control-allow-origin')).to.equal('https://any.example');
    });

    it('answers in Vietnamese with the Vietnamese routes', async () => {
      const res = await fetch(`${server.baseUrl}/llm/chat`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ locale: 'vi', messages: [userMessage(`Giá vé ${chronicles.title.vi} bao nhiêu?`)] }) });
      const text = streamedText(sseChunks(await res.text()).chunks);
      expect(text).to.include(viVnd(offer('SGC-DINNER').pricePerGuestVnd));
      expect(text).to.include(`${SITE}/vi/shows/${chronicles.slug}`);
    });

    it('ignores tool parts named after no tool of the agent’s, an object’s own properties among them', async () => {
      const parts = ['constructor', 'toString', '__proto__', 'hasOwnProperty', 'madeUp'].map((name) => ({ type: `tool-${name}`, toolCallId: `c-${name}`, state: 'output-available', input: {}, output: {} }));
      const res = await fetch(`${server.baseUrl}/llm/chat`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ messages: [userMessage('hi', 'u1'), { id: 'a1', role: 'assistant', parts: [...parts, { type: 'text', text: 'Hello!' }] }, userMessage('What is on?', 'u2')] }),
      });
      expect(res.status, await res.clone().text()).to.equal(200);
      const { done } = sseChunks(await res.text());
      expect(done).to.equal(true);
    });

    it('refuses a body past the contract’s bounds (400) and a conversation not ending with the guest (422)', async () => {
      const many = Array.from({ length: 41 }, (_, i) => userMessage('hi', `m${i}`));
      const tooMany = await server.request('POST', '/llm/chat', { body: { messages: many } });
      expect(tooMany.status).to.equal(400);
      expect(tooMany.body.errors[0].path).to.match(/^body\/messages/);
      const tooLong = await server.request('POST', '/llm/chat', { body: { messages: [userMessage('x'.repeat(4001))] } });
      expect(tooLong.status).to.equal(400);
      const unknownField = await server.request('POST', '/llm/chat', { body: { messages: [userMessage('hi')], model: 'gpt' } });
      expect(unknownField.status).to.equal(400);
      const noQuestion = await server.request('POST', '/llm/chat', { body: { messages: [{ role: 'assistant', parts: [{ type: 'text', text: 'Hello' }] }] } });
      expect(noQuestion.status).to.equal(422);
      expect(noQuestion.body.code).to.equal('no_question');
    });
  });

  describe('the offline model answers from the tools', () => {
    it('what is on, with each show and its page', async () => {
      const { text, links } = await ask("What's on this weekend?");
      for (const show of DEMO_SHOWS) expect(text).to.include(show.title.en);
      expect(links).to.include(`${SITE}/en/shows/${lotus.slug}`);
    });

    it('a show’s details: description, duration, next dates, booking links', async () => {
      const { text, links } = await ask(`Tell me about ${jazz.title.en}`);
      expect(text).to.include(jazz.title.en);
      expect(text).to.include(String(jazz.durationMinutes));
      expect(links.some((link) => link.startsWith(`${SITE}/en/book/${jazz.slug}-`))).to.equal(true);
    });

    it('prices per offer, in Vietnamese', async () => {
      const { text } = await ask(`${lotus.title.vi} giá bao nhiêu?`, 'vi');
      expect(text).to.include(viVnd(offer('LTS-DINNER').pricePerGuestVnd));
      expect(text).to.include(viVnd(offer('LTS-SHOW').pricePerGuestVnd));
      expect(text).to.include(offer('LTS-SHOW').name.vi);
    });

    it('dates and times of one show; a follow-up keeps the show', async () => {
      const first = await ask(`When is ${jazz.title.en} on?`);
      expect(first.text).to.include('21:30');
      const follow = await ask('How much is it?', 'en', [
        { role: 'user', text: `When is ${jazz.title.en} on?` },
        { role: 'assistant', text: first.text },
      ]);
      expect(follow.text).to.include(vnd(offer('JZN-SHOW').pricePerGuestVnd));
      expect(follow.text).not.to.include(vnd(offer('SGC-DINNER').pricePerGuestVnd));
    });

    it('"the later one" after a day of several shows: that day’s last performance, its show’s prices for the party', async () => {
      const question = 'Any seats next Saturday?';
      const first = await ask(question);
      const booking = (links: string[]) => links.filter((link) => link.startsWith(`${SITE}/en/book/`));
      const day = booking(first.links);
      const shows = new Set(day.map((link) => DEMO_SHOWS.find((show) => link.includes(`/book/${show.slug}-`))?.slug));
      expect(shows.size, first.text).to.be.at.least(2);
      const latest = [...day].sort((a, b) => a.slice(-4).localeCompare(b.slice(-4))).at(-1)!;
      const follow = await ask('ok the later one, how much for 2?', 'en', [
        { role: 'user', text: question },
        { role: 'assistant', text: first.text },
      ]);
      expect(booking(follow.links), follow.text).to.deep.equal([latest]);
      const show = DEMO_SHOWS.find((candidate) => latest.includes(`/book/${candidate.slug}-`))!;
      expect(follow.text).to.include(show.title.en);
      for (const other of DEMO_SHOWS.filter((candidate) => candidate.slug !== show.slug)) expect(follow.text, follow.text).not.to.include(other.title.en);
    });

    it('"on Dec 8 at 7:30pm" is that day’s performance: "when’s the next one then" is the one after it', async () => {
      const listing = await ask(`When is ${chronicles.title.en} on?`);
      const links = listing.links.filter((link) => link.startsWith(`${SITE}/en/book/${chronicles.slug}-`));
      expect(links.length, listing.text).to.be.at.least(3);
      const [, year, month, day, hh, mm] = links[1].match(/-(\d{4})-(\d{2})-(\d{2})-(\d{2})(\d{2})$/)!;
      const monthName = new Date(Date.UTC(Number(year), Number(month) - 1, 1)).toLocaleString('en-US', { month: 'short', timeZone: 'UTC' });
      const question = `${chronicles.title.en} on ${monthName} ${Number(day)} at ${Number(hh) > 12 ? Number(hh) - 12 : Number(hh)}:${mm}${Number(hh) >= 12 ? 'pm' : 'am'}, 2 tickets pls`;
      const first = await ask(question);
      const follow = await ask("damn. when's the next one then", 'en', [
        { role: 'user', text: question },
        { role: 'assistant', text: first.text },
      ]);
      expect(follow.links.filter((link) => link.includes('/en/book/')), follow.text).to.deep.equal([links[2]]);
    });

    it('the party changes across turns: people added keep the children, a count said again is everyone, children said again keep the adults', async () => {
      const added = `how much is ${lotus.title.en} with dinner for 2 adults and 1 kid`;
      const first = await ask(added);
      expect(first.text).to.include('3 guests');
      const grandma = await ask('actually grandma is coming too, so 3 adults', 'en', [
        { role: 'user', text: added },
        { role: 'assistant', text: first.text },
      ]);
      expect(grandma.text, grandma.text).to.include('For 4 guests');
      const four = `price ${chronicles.title.en} dinner show for 4 ppl?`;
      const quote = await ask(four);
      const meant = await ask('sorry I meant 5, my sister is coming too', 'en', [
        { role: 'user', text: four },
        { role: 'assistant', text: quote.text },
      ]);
      expect(meant.text, meant.text).to.include('For 5 guests');
      const family = `Giá gói ăn tối gia đình ${lotus.title.vi} cho 3 người lớn 1 bé 5 tuổi`;
      const vi = await ask(family, 'vi');
      expect(vi.text).to.include('Cho 4 khách');
      const kids = await ask('À nhầm, 2 bé chứ, 5 tuổi với 8 tuổi', 'vi', [
        { role: 'user', text: family },
        { role: 'assistant', text: vi.text },
      ]);
      expect(kids.text, kids.text).to.include('Cho 5 khách');
    });

    it('a thank-you after an answer is answered as one, not with the answer again', async () => {
      const question = 'what is on this weekend?';
      const first = await ask(question);
      expect(first.links.some((link) => link.includes('/en/')), first.text).to.equal(true);
      const thanks = await ask('great, thanks!', 'en', [
        { role: 'user', text: question },
        { role: 'assistant', text: first.text },
      ]);
      expect(thanks.links, thanks.text).to.deep.equal([]);
      expect(thanks.text).not.to.include(chronicles.title.en);
    });

    it('"the 7.30 one, what is it about?" after a day’s programme: that performance and what its show is', async () => {
      const question = 'Any seats next Saturday?';
      const first = await ask(question);
      const evening = first.links.filter((link) => link.startsWith(`${SITE}/en/book/${chronicles.slug}-`) && link.endsWith('-1930'));
      expect(evening, first.text).to.have.length(1);
      const follow = await ask('the 7.30 one, what is it about?', 'en', [
        { role: 'user', text: question },
        { role: 'assistant', text: first.text },
      ]);
      expect(follow.links.filter((link) => link.includes('/en/book/')), follow.text).to.deep.equal(evening);
      expect(follow.text).to.include(chronicles.summary.en.slice(0, 40));
    });

    it('"suất đó" after a price question about one show of a day’s programme (the history with its tool parts, as useChat sends it): that show’s performance that day', async () => {
      // Each turn through /llm/chat; the assistant's message goes back with its tool parts and its text.
      const messages: Array<Record<string, unknown>> = [];
      const turn = async (text: string) => {
        messages.push(userMessage(text, `u${messages.length}`));
        const res = await fetch(`${server.baseUrl}/llm/chat`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ id: 'chat-that', locale: 'vi', trigger: 'submit-message', messages }),
        });
        expect(res.status).to.equal(200);
        const { chunks } = sseChunks(await res.text());
        const inputs = new Map(chunks.filter((chunk) => chunk.type === 'tool-input-available').map((chunk) => [chunk.toolCallId, chunk]));
        const tools = chunks
          .filter((chunk) => chunk.type === 'tool-output-available')
          .map((chunk) => ({ type: `tool-${inputs.get(chunk.toolCallId)!.toolName}`, toolCallId: chunk.toolCallId, state: 'output-available', input: inputs.get(chunk.toolCallId)!.input, output: chunk.output }));
        const answer = streamedText(chunks);
        messages.push({ id: `a${messages.length}`, role: 'assistant', parts: [...tools, { type: 'text', text: answer }] });
        return { text: answer, links: [...answer.matchAll(/\]\((https?:\/\/[^)\s]+)\)/g)].map((match) => match[1]) };
      };
      const first = await turn('Tối thứ 6 tuần sau có chương trình gì không ạ?');
      // Next week's Friday in the venue's zone: Saigon Chronicles plays every evening from Tuesday to Sunday.
      const friday = DateTime.now().setZone('Asia/Ho_Chi_Minh').startOf('week').plus({ weeks: 1, days: 4 }).toISODate()!;
      expect(first.text).to.include(chronicles.title.vi);
      const second = await turn(`Vậy ${chronicles.title.vi} giá bao nhiêu ạ`);
      expect(second.text).to.include(viVnd(offer('SGC-DINNER').pricePerGuestVnd));
      const book = await turn('Dạ cho em đặt 2 người gói ăn tối suất đó nhé');
      expect(book.links.filter((link) => link.includes('/vi/book/')), book.text).to.deep.equal([`${SITE}/vi/book/${chronicles.slug}-${friday}-1930`]);
    });

    it('a message in Vietnamese without diacritics on the English site is answered, and looked up, in Vietnamese', async () => {
      const { text } = await ask('di xem show can mac gi, mac quan dui voi dep ke dc ko', 'en');
      const [title] = quoted('dress-code', 'vi');
      expect(text, text).to.include(title);
    });

    it('a child no show admits: every show’s age rule; a booking asked by a name: refused, and where one’s own booking is', async () => {
      const toddler = await ask('we have a 3 yr old, which show can she watch?');
      for (const show of DEMO_SHOWS) expect(toddler.text, toddler.text).to.include(`**${show.title.en}** is for guests aged ${show.minimumAge}`);
      const byName = await ask('mình book rồi, can you check my booking under name Lan?', 'en');
      expect(byName.text, byName.text).to.match(/I can’t do that/);
      expect(byName.text).to.include('confirmation e-mail');
    });

    it('availability on a date for a party', async () => {
      const { text, links } = await ask('Tối thứ bảy tuần sau còn chỗ cho 2 người không?', 'vi');
      expect(text).to.include('Thứ Bảy');
      expect(links.some((link) => link.startsWith(`${SITE}/vi/book/`))).to.equal(true);
    });

    it('a party larger than online booking takes: the inquiry page', async () => {
      const { text, links } = await ask('Do you have room for a group of 40 on Friday?');
      expect(text).to.include('40');
      expect(links).to.include(`${SITE}/en/inquiries`);
    });

    it('policies from the published knowledge, in both languages', async () => {
      const cases: Array<[string, string, 'en' | 'vi']> = [
        ['What is the dress code?', 'dress-code', 'en'],
        ['Can I get a refund if I cancel?', 'cancellation-refund', 'en'],
        ['Có chỗ đậu xe ô tô không?', 'parking', 'vi'],
        ['Can I bring my kids?', 'children', 'en'],
        ['Do you have vegetarian food?', 'dietary-options', 'en'],
        ['Is the venue wheelchair accessible?', 'accessibility', 'en'],
        ['Tôi nên đến sớm bao lâu?', 'arrival-time', 'vi'],
        ['Can I pay by card?', 'payment-methods', 'en'],
      ];
      for (const [question, topic, locale] of cases) {
        const { text } = await ask(question, locale);
        for (const part of quoted(topic, locale)) expect(text, question).to.include(part);
      }
    });

    it('paying later says what the booking does (issue 34 §1): at the box office confirmed at once, a transfer holds the seats', async () => {
      const atVenue = await ask('Can I pay at the venue when I arrive?');
      expect(atVenue.text).to.include('Pay at the box office: confirmed at once, you pay on arrival');
      const transfer = await ask('Can I pay by bank transfer?');
      expect(transfer.text).to.include('Bank transfer: seats held 24 hours');
      const vi = await ask('Tôi có thể chuyển khoản không?', 'vi');
      expect(vi.text).to.include('Chuyển khoản: chỗ được giữ 24 giờ');
    });

    it('contact and location, private events', async () => {
      for (const part of quoted('contact-location', 'en')) expect((await ask('Where are you located?')).text).to.include(part);
      const privateEvent = await ask('Can we book the whole venue for a company party?');
      expect(privateEvent.text).to.include(vnd(offer('PRIVATE-EVENT').pricePerGuestVnd));
      expect(privateEvent.links).to.include(`${SITE}/en/inquiries`);
    });

    it('how to book: the booking pages', async () => {
      const { links } = await ask(`How do I book ${chronicles.title.en}?`);
      expect(links.some((link) => link.startsWith(`${SITE}/en/book/${chronicles.slug}-`))).to.equal(true);
    });

    it('says when it does not know, and links the inquiry page', async () => {
      const { text, links } = await ask('Can I bring my dog to the show?');
      expect(text).to.match(/rather not guess/i);
      expect(links).to.deep.equal([`${SITE}/en/inquiries`]);
    });
  });

  describe('POST /api/ai/customer-support (legacy)', () => {
    it('streams plain text from the same agent, marked deprecated', async () => {
      const res = await fetch(`${server.baseUrl}/api/ai/customer-support`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ messages: [{ role: 'user', content: 'What is the dress code?' }] }) });
      expect(res.status).to.equal(200);
      expect(res.headers.get('deprecation')).to.match(/^@\d+$/);
      expect(res.headers.get('link')).to.equal('</llm/chat>; rel="successor-version"');
      expect(res.headers.get('content-type')).to.match(/^text\/plain/);
      expect(await res.text()).to.include('Smart casual');
    });

    it('400 on a malformed body', async () => {
      const res = await server.request('POST', '/api/ai/customer-support', { body: { messages: [{ role: 'user' }] } });
      expect(res.status).to.equal(400);
    });
  });

  describe('POST /api/ai/demo', () => {
    it('400 without a prompt', async () => {
      const res = await server.request('POST', '/api/ai/demo', { body: { locale: 'en' } });
      expect(res.status).to.equal(400);
      expect(res.body.errors[0].path).to.equal('body/prompt');
    });

    it('422 no_question for a blank or whitespace-only prompt, naming body/prompt (as the other chat routes)', async () => {
      for (const prompt of ['', ' ', '\n\t  \u00a0']) {
        const res = await server.request('POST', '/api/ai/demo', { body: { prompt, locale: 'en' } });
        expect(res.status, JSON.stringify(prompt)).to.equal(422);
        expect(res.headers.get('content-type')).to.match(/^application\/problem\+json/);
        expect(res.body.code).to.equal('no_question');
        expect(res.body.errors.map((e: { path: string }) => e.path)).to.deep.equal(['body/prompt']);
      }
    });

    it('answers a prompt with spaces around it, leaving blank history messages out', async () => {
      const res = await server.request('POST', '/api/ai/demo', { body: { prompt: '  What shows are on?  ', locale: 'en', history: [{ role: 'user', text: '   ' }] } });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expect(res.body.text).to.be.a('string').and.not.equal('');
    });
  });

  describe('/api/agentruntime/* (disabled)', () => {
    it('is always 404', async () => {
      for (const [method, path] of [['GET', '/api/agentruntime/status'], ['POST', '/api/agentruntime/run'], ['GET', '/api/agentruntime/a/b']]) {
        const res = await server.request(method, path, { headers: { 'x-api-token': 'test-superuser-token-0123456789' }, ...(method === 'POST' ? { body: {} } : {}) });
        expect(res.status, `${method} ${path}`).to.equal(404);
      }
    });
  });
});
