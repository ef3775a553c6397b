import { expect } from 'chai';
import { addressKey, RATE_LIMIT_TABLE, RateLimit, rateLimitStoreFor } from '../../server/platform/rateLimit.ts';
import { testDatabase } from '../helpers/database.ts';

describe('rate limits (server/platform/rateLimit.ts)', () => {
  it('keys IPv4 (also IPv4-mapped) as is and IPv6 by its /64', () => {
    expect(addressKey('10.1.2.3')).to.equal('10.1.2.3');
    expect(addressKey('::ffff:10.1.2.3')).to.equal('10.1.2.3');
    expect(addressKey('2001:db8:1:2::1')).to.equal('2001:db8:1:2::/64');
    expect(addressKey('2001:0DB8:0001:0002:ffff:0:0:9')).to.equal('2001:db8:1:2::/64');
    expect(addressKey('2001:db8::1')).to.equal('2001:db8:0:0::/64');
    expect(addressKey('::1')).to.equal('0:0:0:0::/64');
    expect(addressKey('fe80::1%eth0')).to.equal('fe80:0:0:0::/64');
  });

  it("allows exactly the rule's points of concurrent attempts, counts refusals, and resets or rewards one key @db", async () => {
    const db = await testDatabase();
    const limit = new RateLimit({ name: `spec-${Date.now()}`, points: 4, windowSeconds: 60 }, rateLimitStoreFor(db));
    const decisions = await Promise.all(Array.from({ length: 30 }, () => limit.consume('k')));
    expect(decisions.filter((d) => d.allowed)).to.have.length(4);
    const refused = decisions.find((d) => !d.allowed);
    expect(refused).to.deep.include({ allowed: false });
    expect((refused as { retryAfterSeconds: number }).retryAfterSeconds).to.be.within(1, 60);
    expect((await limit.consume('other')).allowed).to.equal(true);
    await limit.reset('k');
    expect(await limit.consume('k')).to.deep.equal({ allowed: true, remaining: 3 });
    await limit.reward('k');
    expect(await limit.consume('k')).to.deep.equal({ allowed: true, remaining: 3 });
  });

  it('shares the counts between processes on PostgreSQL (two limiters over one database), and stores no raw key @db', async function () {
    const db = await testDatabase();
    if (db.kind !== 'postgres') this.skip();
    const rule = { name: `spec-shared-${Date.now()}`, points: 3, windowSeconds: 60 };
    const first = new RateLimit(rule, rateLimitStoreFor(db));
    const second = new RateLimit(rule, rateLimitStoreFor(db));
    await first.consume('someone@example.test');
    await second.consume('someone@example.test');
    expect(await first.consume('someone@example.test')).to.deep.include({ allowed: true, remaining: 0 });
    expect((await second.consume('someone@example.test')).allowed).to.equal(false);
    const rows = await db.knex(RATE_LIMIT_TABLE).where('key', 'like', `${rule.name}:%`);
    expect(rows).to.have.length(1);
    expect(JSON.stringify(rows)).to.not.contain('someone');
  });
});
