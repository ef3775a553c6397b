import { expect } from 'chai';
import { useAssistant } from '../../../server/assistant/index.ts';
import { loadConfig } from '../../../server/platform/config.ts';
import type { AppContext } from '../../../server/platform/context.ts';
import { runTurn } from '../../../server/modules/chatPlatform/commands/runTurn.ts';
import { insertTurn } from '../../../server/modules/chatPlatform/queries.ts';
import { RetryTurn, type TurnChannel } from '../../../server/modules/chatPlatform/turns.ts';
import { resetData, testDatabase } from '../../helpers/database.ts';
import { FakeClock, fakeTyping } from '../../helpers/fakeClock.ts';
import { memoryLogger } from '../../helpers/mail.ts';
import { deferred, scriptedAssistant } from '../../helpers/scriptedAssistant.ts';

/**
 * The typing loop inside a background turn, with fake timers and a fake platform adapter: typing runs while the
 * agent generates, never delays generation or the send, and ends with a final typing-off on every exit path.
 */
describe('chatPlatform: typing during a background turn (fake timers, fake adapter)', () => {
  let app: AppContext;
  const agent = scriptedAssistant();

  before(async () => {
    const db = await testDatabase();
    await resetData(db.knex);
    app = { config: loadConfig({ NODE_ENV: 'test' }), db } as unknown as AppContext;
    useAssistant(app, agent);
  });
  beforeEach(() => agent.reset());

  function platform(clock: FakeClock, options: { sendFails?: boolean; typingFails?: boolean } = {}) {
    const typing = fakeTyping(clock, { failing: options.typingFails });
    const sent: Array<{ text: string; at: number; typingCallsBefore: number }> = [];
    const channel: TurnChannel = {
      typing: () => typing,
      async send(_turn, text) {
        sent.push({ text, at: clock.now(), typingCallsBefore: typing.calls.length });
        if (options.sendFails) throw Object.assign(new Error('platform refused'), { retryable: false });
      },
      describe: (err) => ({ code: 'send_refused', detail: (err as Error).message, retryable: false, fields: {} }),
    };
    return { typing, sent, channel };
  }

  async function startTurn(clock: FakeClock, channel: TurnChannel, attempt = 1) {
    const id = (await insertTurn(app.db.knex, { source: 'whatsapp', channel: 'whatsapp', recipient: '84912345678', externalMessageId: `wamid.${Math.random()}`, locale: 'en', text: 'hi' }))!;
    const { logger, lines } = memoryLogger();
    const outcome = runTurn(app, id, channel, { attempt, retryLimit: 3, log: logger }, { clock, routes: async () => [] });
    return { id, outcome, lines };
  }

  it('success: typing on/off while the agent works, the answer sent as soon as it is ready, then a final off', async () => {
    const clock = new FakeClock([0]);
    const { typing, sent, channel } = platform(clock);
    const generation = deferred<{ text: string; links: string[]; audit: { invalid: string[] } }>();
    agent.answer = () => generation.promise;
    const { outcome } = await startTurn(clock, channel);
    await agent.called();
    await clock.advance(10_000);
    expect(typing.calls.map((c) => c.on)).to.deep.equal([true, false, true, false, true, false, true]);
    generation.resolve({ text: 'Here you go', links: [], audit: { invalid: [] } });
    expect(await outcome).to.deep.equal({ status: 'SENT', errorCode: undefined });
    expect(sent).to.have.length(1);
    expect(sent[0].at).to.equal(10_000); // no typing timer stood between the answer and its send
    expect(typing.calls).to.have.length(sent[0].typingCallsBefore + 1);
    expect(typing.calls.at(-1)).to.deep.equal({ on: false, at: 10_000 });
    expect(clock.pending).to.equal(0);
  });

  it('agent error: a final off, and the turn is retried (or fails on its last attempt)', async () => {
    for (const attempt of [1, 4]) {
      const clock = new FakeClock([0]);
      const { typing, sent, channel } = platform(clock);
      const generation = deferred<never>();
      agent.answer = () => generation.promise;
      const { outcome } = await startTurn(clock, channel, attempt);
      await agent.called(attempt === 1 ? 1 : 2);
      await clock.advance(3_000);
      generation.reject(new Error('model down'));
      const result = await outcome.catch((e) => e);
      if (attempt === 1) expect(result).to.be.instanceOf(RetryTurn);
      else expect(result).to.deep.equal({ status: 'FAILED', errorCode: 'agent_error' });
      expect(sent).to.have.length(0);
      expect(typing.calls[0]).to.deep.equal({ on: true, at: 400 });
      expect(typing.calls.at(-1)).to.deep.equal({ on: false, at: 3_000 });
      expect(clock.pending).to.equal(0);
    }
  });

  it('send error: a final off after the failed send; the turn fails', async () => {
    const clock = new FakeClock([0]);
    const { typing, sent, channel } = platform(clock, { sendFails: true });
    const generation = deferred<{ text: string; links: string[]; audit: { invalid: string[] } }>();
    agent.answer = () => generation.promise;
    const { outcome } = await startTurn(clock, channel);
    await agent.called();
    await clock.advance(1_000);
    generation.resolve({ text: 'answer', links: [], audit: { invalid: [] } });
    expect(await outcome).to.deep.equal({ status: 'FAILED', errorCode: 'send_refused' });
    expect(sent).to.have.length(1);
    expect(typing.calls.at(-1)).to.deep.equal({ on: false, at: 1_000 });
    expect(clock.pending).to.equal(0);
  });

  it('a failing typing API is logged and ignored: generation and the send go ahead', async () => {
    const clock = new FakeClock([0]);
    const { typing, sent, channel } = platform(clock, { typingFails: true });
    const generation = deferred<{ text: string; links: string[]; audit: { invalid: string[] } }>();
    agent.answer = () => generation.promise;
    const { outcome, lines } = await startTurn(clock, channel);
    await agent.called();
    await clock.advance(20_000);
    generation.resolve({ text: 'still answered', links: [], audit: { invalid: [] } });
    expect((await outcome).status).to.equal('SENT');
    expect(sent.map((s) => s.text)).to.deep.equal(['still answered']);
    expect(typing.calls).to.have.length(4); // 3 failures, silent, then the final off
    expect(lines.filter((l) => l.msg === 'typing indicator call failed (ignored)')).to.have.length(4);
  });

  it('an answer ready before the initial delay: no typing-on, only the final off', async () => {
    const clock = new FakeClock([0]);
    const { typing, sent, channel } = platform(clock);
    agent.answer = () => ({ text: 'fast', links: [], audit: { invalid: [] } });
    const { outcome } = await startTurn(clock, channel);
    expect((await outcome).status).to.equal('SENT');
    expect(sent).to.have.length(1);
    expect(typing.calls).to.deep.equal([{ on: false, at: 0 }]);
  });
});
