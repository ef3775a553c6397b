import { expect } from 'chai';
import { SUPERUSER_TOKEN, type TestServer } from '../helpers/server.ts';
import { connectedApp, openSection, useSuperuserServer } from './helpers.ts';

describe('tui: jobs', () => {
  let server: TestServer;
  useSuperuserServer((s) => (server = s));

  it('shows each queue with its counts, the last failures (error cut to the line), and refreshes with r', async () => {
    const app = await connectedApp(server.baseUrl, SUPERUSER_TOKEN);
    await openSection(app, 'Jobs');
    let frame = await app.waitFor(/email\.send\s+0\s+0\s+0\s+0\s+0\s+0/);
    expect(frame).to.contain('Last failures');
    expect(frame).to.match(/Last failures\s+None\./);

    // A failed job, as pg-boss records one (the test server runs no workers).
    await server.app.context.jobs.enqueue('email.send', { ledgerId: '00000000-0000-4000-8000-000000000000' });
    await server.db.knex.raw(
      `update pgboss.job set state = 'failed', started_on = now(), completed_on = now(), output = ?::jsonb where name = 'email.send'`,
      [JSON.stringify({ message: `smtp refused: ${'z'.repeat(200)}` })],
    );
    expect(app.frame()).to.match(/Last failures\s+None\./);
    await app.press('r');
    frame = await app.waitFor(/email\.send\s+0\s+0\s+0\s+0\s+1\s+0/);
    const failure = frame.split('\n').find((line) => line.includes('smtp refused'));
    expect(failure).to.match(/^\d{4}-\d\d-\d\d \d\d:\d\d\s+email\.send\s+1 smtp refused: z+…$/);
    expect([...failure!].length).to.be.at.most(100);
  });
});
