import { expect } from 'chai';
import { slugFits } from '../../../server/modules/showEvents/commands/backfillEventSlugs.ts';
import { errorPaths } from '../../helpers/accounts.ts';
import { buildApiKey, permissionMap } from '../../helpers/factories.ts';
import { asSuperuser } from '../../helpers/server.ts';
import { buildEvent } from './factories.ts';
import { specServer } from './helpers.ts';
import { buildShow } from '../shows/factories.ts';

const BACKFILL = '/api/sudo/backfill-event-slugs';

describe('showEvents: POST /api/sudo/backfill-event-slugs', () => {
  const spec = specServer({ venueTimezone: 'Asia/Ho_Chi_Minh' }, { clean: true });

  const slugs = async () => Object.fromEntries((await spec.server.db.knex('show_events').select('id', 'slug')).map((row) => [row.id, row.slug]));

  it('is superuser only, never with an API key; dryRun is required', async () => {
    expect((await spec.server.request('POST', BACKFILL, { body: { dryRun: true } })).status).to.equal(401);
    expect((await spec.server.request('POST', BACKFILL, { headers: spec.as.admin, body: { dryRun: true } })).status).to.equal(403);
    const key = await buildApiKey({ permissions: permissionMap('show-events:backfill') });
    expect((await spec.server.request('POST', BACKFILL, { headers: { 'x-api-key': key.key }, body: { dryRun: true } })).body.code).to.equal('api_key_not_allowed');
    const bare = await spec.server.request('POST', BACKFILL, { headers: asSuperuser, body: {} });
    expect(bare.status).to.equal(400);
    expect(errorPaths(bare)).to.include('body/dryRun');
    expect((await spec.server.request('POST', BACKFILL, { headers: spec.as.owner, body: { dryRun: true } })).status).to.equal(200);
  });

  it('fills missing and malformed slugs (a dry run only reports), keeps fitting ones, and a second run changes nothing', async () => {
    const show = await buildShow({ status: 'PUBLISHED', slug: 'cabaret' });
    // 12:30Z is 19:30 in Asia/Ho_Chi_Minh.
    const missing = await buildEvent(show, { slug: null, startsAt: new Date('2030-01-05T12:30:00Z') });
    const malformed = await buildEvent(show, { slug: 'SGC 6/1', startsAt: new Date('2030-01-06T12:30:00Z') });
    const wrongTime = await buildEvent(show, { slug: 'cabaret-2030-01-07-2000', startsAt: new Date('2030-01-07T12:30:00Z') });
    const fits = await buildEvent(show, { slug: 'cabaret-2030-01-08-1930', startsAt: new Date('2030-01-08T12:30:00Z') });
    const suffixed = await buildEvent(show, { slug: 'cabaret-2030-01-09-1930-2', startsAt: new Date('2030-01-09T12:30:00Z') });
    const expected = [
      { eventId: missing.id, from: null, to: 'cabaret-2030-01-05-1930' },
      { eventId: malformed.id, from: 'SGC 6/1', to: 'cabaret-2030-01-06-1930' },
      { eventId: wrongTime.id, from: 'cabaret-2030-01-07-2000', to: 'cabaret-2030-01-07-1930' },
    ];
    const before = await slugs();

    const preview = await spec.server.request('POST', BACKFILL, { headers: asSuperuser, body: { dryRun: true } });
    expect(preview.status).to.equal(200);
    expect(preview.body).to.deep.equal({ dryRun: true, scanned: 5, changed: 3, unchanged: 2, changes: expected });
    expect(await slugs()).to.deep.equal(before);

    const run = await spec.server.request('POST', BACKFILL, { headers: asSuperuser, body: { dryRun: false } });
    expect(run.body).to.deep.equal({ dryRun: false, scanned: 5, changed: 3, unchanged: 2, changes: expected });
    expect(await slugs()).to.deep.equal({
      ...before,
      [missing.id]: 'cabaret-2030-01-05-1930',
      [malformed.id]: 'cabaret-2030-01-06-1930',
      [wrongTime.id]: 'cabaret-2030-01-07-1930',
    });
    expect((await slugs())[fits.id]).to.equal('cabaret-2030-01-08-1930');
    expect((await slugs())[suffixed.id]).to.equal('cabaret-2030-01-09-1930-2');

    const second = await spec.server.request('POST', BACKFILL, { headers: asSuperuser, body: { dryRun: false } });
    expect(second.body).to.deep.equal({ dryRun: false, scanned: 5, changed: 0, unchanged: 5, changes: [] });
  });

  it('gives a colliding event the first free suffix, and lets a slug move from one event to another', async () => {
    const show = await buildShow({ status: 'PUBLISHED', slug: 'revue' });
    const at = new Date('2030-02-01T12:30:00Z');
    const holder = await buildEvent(show, { slug: 'revue-2030-02-01-1930', startsAt: at });
    const twinA = await buildEvent(show, { slug: null, startsAt: at });
    const twinB = await buildEvent(show, { slug: 'legacy', startsAt: at });
    // `squatter` holds the slug `rightful` should have, while itself starting at another time.
    const rightful = await buildEvent(show, { slug: null, startsAt: new Date('2030-02-02T12:30:00Z') });
    const squatter = await buildEvent(show, { slug: 'revue-2030-02-02-1930', startsAt: new Date('2030-02-03T12:30:00Z') });

    const res = await spec.server.request('POST', BACKFILL, { headers: asSuperuser, body: { dryRun: false } });
    expect(res.status).to.equal(200);
    const after = await slugs();
    expect(after[holder.id]).to.equal('revue-2030-02-01-1930');
    expect([after[twinA.id], after[twinB.id]].sort()).to.deep.equal(['revue-2030-02-01-1930-2', 'revue-2030-02-01-1930-3']);
    expect(after[rightful.id]).to.equal('revue-2030-02-02-1930');
    expect(after[squatter.id]).to.equal('revue-2030-02-03-1930');
    expect((await spec.server.request('POST', BACKFILL, { headers: asSuperuser, body: { dryRun: true } })).body.changed).to.equal(0);
  });

  it('judges a slug against the canonical one: suffixes from -2, nothing else', () => {
    expect(slugFits('a-2030-01-01-1930', 'a-2030-01-01-1930')).to.equal(true);
    expect(slugFits('a-2030-01-01-1930-2', 'a-2030-01-01-1930')).to.equal(true);
    expect(slugFits('a-2030-01-01-1930-12', 'a-2030-01-01-1930')).to.equal(true);
    for (const slug of [null, 'a-2030-01-01-1930-1', 'a-2030-01-01-1930-02', 'a-2030-01-01-1930-x', 'a-2030-01-01-19300', 'b-2030-01-01-1930']) {
      expect(slugFits(slug, 'a-2030-01-01-1930'), String(slug)).to.equal(false);
    }
  });
});
