import { expect } from 'chai';
import type { Knex } from 'knex';
import { createLogger } from '../../server/platform/logger.ts';
import { createNotifications, type Notifications, type Payload } from '../../server/platform/db/notifications.ts';
import { testDatabase } from '../helpers/database.ts';
import { eventually } from '../helpers/eventually.ts';

const logger = createLogger('silent');
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The invalidation channel (server/platform/db/notifications.ts): the publishing process applies a message at once
 * or when its transaction commits, never on a rollback; on PostgreSQL another process's channel receives it through
 * LISTEN/NOTIFY, and a listener that lost its connection reconnects and tells its subscribers to forget everything.
 */
describe('invalidation channel @db', () => {
  let knex: Knex;
  let databaseUrl: string | undefined;
  const opened: Notifications[] = [];
  const open = () => {
    const channel = createNotifications({ knex, kind: databaseUrl ? 'postgres' : 'embedded' }, logger, databaseUrl);
    opened.push(channel);
    return channel;
  };
  before(async () => {
    knex = (await testDatabase()).knex;
    databaseUrl = process.env.DATABASE_URL;
  });
  after(async () => {
    await Promise.all(opened.map((channel) => channel.close()));
  });

  it('applies in this process at once without a transaction, after the commit with one, never on a rollback', async () => {
    const channel = open();
    await channel.ready();
    const seen: Payload[] = [];
    channel.subscribe('things', (payload) => seen.push(payload));
    await channel.publish('things', { id: 'now' });
    expect(seen).to.deep.equal([{ id: 'now' }]);

    await knex.transaction(async (trx) => {
      await channel.publish('things', { id: 'committed' }, trx);
      expect(seen, 'not before the commit').to.have.length(1);
    });
    expect(seen).to.deep.equal([{ id: 'now' }, { id: 'committed' }]);

    await knex
      .transaction(async (trx) => {
        await channel.publish('things', { id: 'rolled back' }, trx);
        throw new Error('roll back');
      })
      .catch(() => {});
    expect(seen).to.have.length(2);
    // Another topic's subscribers hear nothing.
    const others: Payload[] = [];
    channel.subscribe('other', (payload) => others.push(payload));
    await channel.publish('things', { id: 'again' });
    expect(others).to.deep.equal([]);
  });

  describe('on PostgreSQL, between processes', () => {
    before(function () {
      if (!databaseUrl) this.skip();
    });

    it('reaches another channel after the commit (once, never to the sender twice), never after a rollback', async () => {
      const [sender, receiver] = [open(), open()];
      await Promise.all([sender.ready(), receiver.ready()]);
      expect(receiver.kind).to.equal('postgres');
      const [mine, theirs]: Payload[][] = [[], []];
      sender.subscribe('keys', (payload) => mine.push(payload));
      receiver.subscribe('keys', (payload) => theirs.push(payload));
      await knex.transaction(async (trx) => {
        await sender.publish('keys', { apiKeyId: 'k1' }, trx);
        await pause(150);
        expect(theirs, 'nothing before the commit').to.deep.equal([]);
      });
      await eventually(() => theirs.length > 0, { timeoutMs: 1_000, intervalMs: 5, what: 'the notification' });
      expect(theirs).to.deep.equal([{ apiKeyId: 'k1' }]);
      await knex
        .transaction(async (trx) => {
          await sender.publish('keys', { apiKeyId: 'k2' }, trx);
          throw new Error('roll back');
        })
        .catch(() => {});
      await sender.publish('keys', { apiKeyId: 'k3' });
      await eventually(() => theirs.length > 1, { timeoutMs: 1_000, intervalMs: 5, what: 'the second notification' });
      await pause(100);
      expect(theirs).to.deep.equal([{ apiKeyId: 'k1' }, { apiKeyId: 'k3' }]);
      expect(mine).to.deep.equal([{ apiKeyId: 'k1' }, { apiKeyId: 'k3' }]);
    });

    it('reconnects by itself when its connection drops, and tells its subscribers everything may have changed', async function () {
      this.timeout(20_000);
      const [sender, receiver] = [open(), open()];
      await Promise.all([sender.ready(), receiver.ready()]);
      let resets = 0;
      const heard: Payload[] = [];
      receiver.subscribe('catalog', { handle: (payload) => heard.push(payload), reset: () => (resets += 1) });
      const pid = (receiver as unknown as { listenerPid?: number }).listenerPid;
      expect(pid).to.be.a('number');
      await knex.raw('select pg_terminate_backend(?)', [pid!]);
      await eventually(() => resets > 0, { timeoutMs: 10_000, intervalMs: 20, what: 'the reconnection' });
      expect((receiver as unknown as { listenerPid?: number }).listenerPid).to.not.equal(pid);
      await sender.publish('catalog', { entity: 'show' });
      await eventually(() => heard.length > 0, { timeoutMs: 1_000, intervalMs: 5, what: 'a message after the reconnection' });
      expect(heard).to.deep.equal([{ entity: 'show' }]);
    });
  });
});
