import { expect } from 'chai';
import { retryOnDeadlock } from '../../server/platform/jobs/engine.ts';

const failure = (promise: Promise<unknown>) => promise.then(() => undefined, (err: Error) => err);
const deadlock = () => Object.assign(new Error('deadlock detected'), { code: '40P01' });

describe('jobs: queue declarations that lose a deadlock run again @db', () => {
  it('retries a statement PostgreSQL chose as a deadlock victim, and returns its result', async () => {
    let calls = 0;
    const result = await retryOnDeadlock(async () => {
      calls += 1;
      if (calls < 3) throw deadlock();
      return 'declared';
    });
    expect(result).to.equal('declared');
    expect(calls).to.equal(3);
  });

  it('gives up after five attempts, and never retries another error', async () => {
    let calls = 0;
    const always = retryOnDeadlock(async () => {
      calls += 1;
      throw deadlock();
    });
    expect((await failure(always))?.message).to.equal('deadlock detected');
    expect(calls).to.equal(5);

    calls = 0;
    const other = retryOnDeadlock(async () => {
      calls += 1;
      throw Object.assign(new Error('unique violation'), { code: '23505' });
    });
    expect((await failure(other))?.message).to.equal('unique violation');
    expect(calls).to.equal(1);
  });
});
