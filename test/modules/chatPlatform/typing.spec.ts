import { expect } from 'chai';
import { startTypingLoop, TYPING_INDICATOR } from '../../../server/modules/chatPlatform/typing.ts';
import { FakeClock, fakeTyping } from '../../helpers/fakeClock.ts';
import { memoryLogger } from '../../helpers/mail.ts';

describe('chatPlatform: typing indicator loop (spec §8.1)', () => {
  it('keeps the spec’s constants together, exactly as listed', () => {
    expect(TYPING_INDICATOR).to.deep.equal({
      initialDelayMs: { min: 400, max: 900 },
      typingOnMs: { min: 2200, max: 4800 },
      typingOffMs: { min: 600, max: 1800 },
      maxLoopMs: 55_000,
      maxFailures: 3,
    });
  });

  it('waits the initial delay, then alternates on and off with jittered windows inside the ranges', async () => {
    const clock = new FakeClock([0, 0, 0, 0.9999, 0.9999, 0.5]);
    const adapter = fakeTyping(clock);
    const { logger } = memoryLogger();
    const loop = startTypingLoop(adapter, logger, clock);
    await clock.advance(399);
    expect(adapter.calls).to.deep.equal([]);
    await clock.advance(20_000);
    const times = adapter.calls.map((c) => c.at);
    expect(adapter.calls.slice(0, 5).map((c) => c.on)).to.deep.equal([true, false, true, false, true]);
    // random 0 → the minimum of each range; 0.9999 → the maximum.
    expect(times.slice(0, 4)).to.deep.equal([400, 400 + 2200, 400 + 2200 + 600, 400 + 2200 + 600 + 4800]);
    expect(times[4] - times[3]).to.equal(1800);
    await loop.stop();
    expect(adapter.calls.at(-1)!.on).to.equal(false);
  });

  it('jitters every window within its range', async () => {
    const clock = new FakeClock(Array.from({ length: 200 }, (_, i) => (i * 0.37) % 1));
    const adapter = fakeTyping(clock);
    const loop = startTypingLoop(adapter, memoryLogger().logger, clock);
    await clock.advance(50_000);
    await loop.stop();
    const calls = adapter.calls.slice(0, -1);
    expect(calls[0].at).to.be.within(400, 900);
    for (let i = 1; i < calls.length; i++) {
      const gap = calls[i].at - calls[i - 1].at;
      if (calls[i - 1].on) expect(gap).to.be.within(2200, 4800);
      else expect(gap).to.be.within(600, 1800);
    }
  });

  it('stops by itself after 55 s (no typing-on past it), and the final off still comes at stop', async () => {
    const clock = new FakeClock([0]);
    const adapter = fakeTyping(clock);
    const loop = startTypingLoop(adapter, memoryLogger().logger, clock);
    await clock.advance(120_000);
    const ons = adapter.calls.filter((c) => c.on);
    expect(ons.length).to.be.greaterThan(5);
    expect(Math.max(...ons.map((c) => c.at))).to.be.below(55_000);
    expect(adapter.calls.at(-1)!.on).to.equal(false);
    expect(clock.pending).to.equal(0);
    const before = adapter.calls.length;
    await loop.stop();
    expect(adapter.calls.length).to.equal(before + 1);
    expect(adapter.calls.at(-1)).to.deep.equal({ on: false, at: 120_000 });
  });

  it('goes silent after 3 failures, logs each, and still sends the final off (whose failure is logged, never thrown)', async () => {
    const clock = new FakeClock([0]);
    const adapter = fakeTyping(clock, { failing: true });
    const { logger, lines } = memoryLogger();
    const loop = startTypingLoop(adapter, logger, clock);
    await clock.advance(30_000);
    expect(adapter.calls).to.have.length(3);
    expect(loop.failures).to.equal(3);
    expect(clock.pending).to.equal(0);
    await loop.stop();
    expect(adapter.calls).to.have.length(4);
    expect(adapter.calls.at(-1)!.on).to.equal(false);
    expect(lines.filter((l) => l.msg === 'typing indicator call failed (ignored)')).to.have.length(4);
    expect(lines.some((l) => l.msg === 'typing indicator loop silent after repeated failures')).to.equal(true);
  });

  it('answer ready before the initial delay: no typing-on at all, one final off', async () => {
    const clock = new FakeClock([0.5]);
    const adapter = fakeTyping(clock);
    const loop = startTypingLoop(adapter, memoryLogger().logger, clock);
    await clock.advance(300);
    await loop.stop();
    await loop.stop();
    expect(adapter.calls).to.deep.equal([{ on: false, at: 300 }]);
    await clock.advance(10_000);
    expect(adapter.calls).to.have.length(1);
  });
});
