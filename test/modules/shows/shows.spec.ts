import { expect } from 'chai';
import { errorPaths } from '../../helpers/accounts.ts';
import { startTestServer, type TestServer } from '../../helpers/server.ts';
import { apiKeyWith, catalogSpec, MISSING_ID } from './catalog.ts';
import { buildShow } from './factories.ts';
import { buildBlob } from '../storage/factories.ts';

describe('shows: /api/shows', () => {
  const spec = catalogSpec();
  const as = spec.as;
  const admin = () => as(spec.callers.admin);
  const validShow = (code: string, extra: Record<string, unknown> = {}) => ({
    code,
    slug: `show-${code.toLowerCase()}`,
    title: { en: `Show ${code}`, vi: `Chương trình ${code}` },
    durationMinutes: 90,
    ...extra,
  });

  describe('access', () => {
    it('refuses anonymous callers (401) on reads and writes', async () => {
      const show = await buildShow();
      expect((await as({}).get('/api/shows')).status).to.equal(401);
      expect((await as({}).get(`/api/shows/${show.id}`)).status).to.equal(401);
      expect((await as({}).post('/api/shows', validShow('ANON'))).status).to.equal(401);
      expect((await as({}).delete(`/api/shows/${show.id}`)).status).to.equal(401);
    });

    it('is admin+ (spec §4.3): staff neither read nor write (403 on list, get, create, update, publish, unpublish, archive)', async () => {
      const show = await buildShow();
      const staff = as(spec.callers.staff);
      for (const res of [await staff.get('/api/shows'), await staff.get(`/api/shows/${show.id}`)]) {
        expect(res.status).to.equal(403);
        expect(res.body.code).to.equal('insufficient_role');
      }
      expect((await admin().get('/api/shows')).status).to.equal(200);
      expect((await admin().get(`/api/shows/${show.id}`)).status).to.equal(200);
      expect((await staff.post('/api/shows', validShow('STAFF'))).status).to.equal(403);
      expect((await staff.patch(`/api/shows/${show.id}`, { sortOrder: 3 })).status).to.equal(403);
      expect((await staff.post(`/api/shows/${show.id}/publish`)).status).to.equal(403);
      expect((await staff.post(`/api/shows/${show.id}/unpublish`)).status).to.equal(403);
      expect((await staff.delete(`/api/shows/${show.id}`)).status).to.equal(403);
      const [row] = await spec.server.db.knex('shows').where('id', show.id);
      expect(row).to.include({ status: 'DRAFT', sort_order: 0 });
      expect(await spec.server.db.knex('shows').where('code', 'STAFF').first()).to.equal(undefined);
    });

    it('takes API keys by permission: shows:read reads, shows:write writes, each only its own', async () => {
      const reader = await apiKeyWith('shows:read');
      const writer = await apiKeyWith('shows:write');
      expect((await as(reader).get('/api/shows')).status).to.equal(200);
      const refused = await as(reader).post('/api/shows', validShow('KEYRO'));
      expect(refused.status).to.equal(403);
      expect(refused.body.code).to.equal('missing_permission');
      expect((await as(writer).get('/api/shows')).status).to.equal(403);
      expect((await as(writer).post('/api/shows', validShow('KEYRW'))).status).to.equal(201);
    });
  });

  describe('create', () => {
    it('creates a draft with defaults, every site locale filled for the dashboard', async () => {
      const res = await admin().post('/api/shows', { code: 'SGC', slug: 'saigon-glow', title: { en: 'Saigon Glow' }, summary: { en: 'Acrobatics', vi: 'Nhào lộn' }, durationMinutes: 95 });
      expect(res.status).to.equal(201);
      expect(res.body).to.include({ code: 'SGC', slug: 'saigon-glow', status: 'DRAFT', canonical: false, durationMinutes: 95, minimumAge: null, sortOrder: 0, publishedAt: null, archivedAt: null });
      expect(res.body.title).to.deep.equal({ en: 'Saigon Glow', vi: 'Saigon Glow' });
      expect(res.body.summary).to.deep.equal({ en: 'Acrobatics', vi: 'Nhào lộn' });
      expect(res.body.description).to.deep.equal({ en: '', vi: '' });
      expect(res.body.untranslated).to.deep.equal(['title/vi']);
      expect(res.body.imageBlobIds).to.deep.equal([]);
      // Stored as sent: the fill is the view's, not the row's.
      const [row] = await spec.server.db.knex('shows').where('id', res.body.id);
      expect(row.title).to.deep.equal({ en: 'Saigon Glow' });
    });

    it('takes existing image blobs in order, and refuses an unknown or object-deleted one (422 unknown_blob)', async () => {
      const first = (await buildBlob()).id;
      const second = (await buildBlob()).id;
      const ok = await admin().post('/api/shows', validShow('IMGOK', { imageBlobIds: [second, first] }));
      expect(ok.status).to.equal(201);
      expect(ok.body.imageBlobIds).to.deep.equal([second, first]);

      const gone = (await buildBlob({ deleted: true })).id;
      const bad = await admin().post('/api/shows', validShow('IMGBAD', { imageBlobIds: [first, MISSING_ID, gone] }));
      expect(bad.status).to.equal(422);
      expect(bad.body.code).to.equal('unknown_blob');
      expect(errorPaths(bad)).to.deep.equal(['body/imageBlobIds/1', 'body/imageBlobIds/2']);
      expect(await spec.server.db.knex('shows').where('code', 'IMGBAD').first()).to.equal(undefined);
    });

    it('refuses a locale outside SITE_LOCALES and text without the default locale (422, pointing at the locale)', async () => {
      const unknown = await admin().post('/api/shows', validShow('LOCFR', { title: { en: 'Glow', fr: 'Lueur' } }));
      expect(unknown.status).to.equal(422);
      expect(unknown.body.code).to.equal('unknown_locale');
      expect(errorPaths(unknown)).to.deep.equal(['body/title/fr']);

      const noDefault = await admin().post('/api/shows', validShow('LOCVI', { title: { vi: 'Ánh Sáng' } }));
      expect(noDefault.status).to.equal(422);
      expect(noDefault.body.code).to.equal('default_locale_required');
      expect(errorPaths(noDefault)).to.deep.equal(['body/title/en']);

      const summary = await admin().post('/api/shows', validShow('LOCSUM', { summary: { vi: 'Tóm tắt' } }));
      expect(summary.status).to.equal(422);
      expect(errorPaths(summary)).to.deep.equal(['body/summary/en']);
      expect(await spec.server.db.knex('shows').whereIn('code', ['LOCFR', 'LOCVI', 'LOCSUM'])).to.have.length(0);
    });

    it('refuses malformed fields with 400 naming each (code, slug, duration, empty title, unknown field)', async () => {
      const cases: Array<[Record<string, unknown>, string]> = [
        [validShow('x1'), 'body/code'],
        [{ ...validShow('SLUG'), slug: 'Bad Slug' }, 'body/slug'],
        [{ ...validShow('DUR'), durationMinutes: 0 }, 'body/durationMinutes'],
        [{ ...validShow('DUR2'), durationMinutes: 1441 }, 'body/durationMinutes'],
        [{ ...validShow('EMPTY'), title: {} }, 'body/title'],
        [{ ...validShow('BLANK'), title: { en: '   ' } }, 'body/title/en'],
        [{ ...validShow('EXTRA'), status: 'PUBLISHED' }, 'body/status'],
        [{ code: 'NOTITLE', slug: 'no-title', durationMinutes: 60 }, 'body/title'],
        [{ ...validShow('AGE1'), minimumAge: -1 }, 'body/minimumAge'],
        [{ ...validShow('AGE2'), minimumAge: 22 }, 'body/minimumAge'],
        [{ ...validShow('AGE3'), minimumAge: 12.5 }, 'body/minimumAge'],
        [{ ...validShow('AGE4'), minimumAge: '18' }, 'body/minimumAge'],
      ];
      for (const [body, path] of cases) {
        const res = await admin().post('/api/shows', body);
        expect(res.status, JSON.stringify(body)).to.equal(400);
        expect(errorPaths(res), JSON.stringify(body)).to.include(path);
      }
    });

    it('refuses a taken code or slug with 409 code_taken / slug_taken', async () => {
      await buildShow({ code: 'DUP', slug: 'dup-show' });
      const code = await admin().post('/api/shows', validShow('DUP', { slug: 'another-slug' }));
      expect(code.status).to.equal(409);
      expect(code.body.code).to.equal('code_taken');
      const slug = await admin().post('/api/shows', validShow('DUPSLUG', { slug: 'dup-show' }));
      expect(slug.status).to.equal(409);
      expect(slug.body.code).to.equal('slug_taken');
    });

    it('lets exactly one of concurrent creates with the same code win; the others get 409 code_taken @db', async () => {
      const results = await Promise.all(Array.from({ length: 5 }, (_, i) => admin().post('/api/shows', validShow('RACE', { slug: `race-${i}` }))));
      expect(results.map((r) => r.status).sort()).to.deep.equal([201, 409, 409, 409, 409]);
      for (const res of results.filter((r) => r.status === 409)) expect(res.body.code).to.equal('code_taken');
      expect(await spec.server.db.knex('shows').where('code', 'RACE')).to.have.length(1);
    });
  });

  describe('list and get', () => {
    before(async () => {
      await spec.server.db.knex('shows').delete();
      await buildShow({ code: 'BBB', sortOrder: 2, title: { en: 'Lantern Night', vi: 'Đêm Đèn Lồng' } });
      await buildShow({ code: 'AAA', sortOrder: 2, status: 'PUBLISHED' });
      await buildShow({ code: 'ZZZ', sortOrder: 1, slug: 'water-puppets' });
      await buildShow({ code: 'CCC', sortOrder: 3, status: 'ARCHIVED', title: { en: '100% Circus' } });
    });

    it('orders by sortOrder, then code, with total, limit and offset', async () => {
      const all = await admin().get('/api/shows');
      expect(all.status).to.equal(200);
      expect(all.body.items.map((s: any) => s.code)).to.deep.equal(['ZZZ', 'AAA', 'BBB', 'CCC']);
      expect(all.body).to.include({ total: 4, limit: 20, offset: 0 });
      const page = await admin().get('/api/shows?limit=2&offset=1');
      expect(page.body.items.map((s: any) => s.code)).to.deep.equal(['AAA', 'BBB']);
      expect(page.body).to.include({ total: 4, limit: 2, offset: 1 });
      const past = await admin().get('/api/shows?offset=10');
      expect(past.body.items).to.deep.equal([]);
      expect(past.body.total).to.equal(4);
    });

    it('filters by status, and searches code, slug and titles in any locale (case-insensitive, % literal)', async () => {
      const codes = async (query: string) => (await admin().get(`/api/shows?${query}`)).body.items.map((s: any) => s.code);
      expect(await codes('status=PUBLISHED')).to.deep.equal(['AAA']);
      expect(await codes('search=aa')).to.deep.equal(['AAA']);
      expect(await codes('search=PUPPET')).to.deep.equal(['ZZZ']);
      expect(await codes(`search=${encodeURIComponent('đèn')}`)).to.deep.equal(['BBB']);
      expect(await codes(`search=${encodeURIComponent('100%')}`)).to.deep.equal(['CCC']);
      expect(await codes(`search=${encodeURIComponent('%')}`)).to.deep.equal(['CCC']);
      expect(await codes('search=en')).to.deep.equal([]);
      const filtered = await admin().get('/api/shows?status=DRAFT&search=b');
      expect(filtered.body.items.map((s: any) => s.code)).to.deep.equal(['BBB']);
      expect(filtered.body.total).to.equal(1);
    });

    it('refuses bad filters and paging with 400 naming the parameter', async () => {
      for (const [query, path] of [['status=LIVE', 'query/status'], ['limit=0', 'query/limit'], ['limit=101', 'query/limit'], ['offset=-1', 'query/offset'], ['search=', 'query/search']]) {
        const res = await admin().get(`/api/shows?${query}`);
        expect(res.status, query).to.equal(400);
        expect(errorPaths(res), query).to.include(path);
      }
    });

    it('gets one show; 404 for an unknown id, 400 for a malformed one', async () => {
      const show = await buildShow({ title: { en: 'Only English' } });
      const res = await admin().get(`/api/shows/${show.id}`);
      expect(res.status).to.equal(200);
      expect(res.body).to.include({ id: show.id, code: show.code });
      expect(res.body.title).to.deep.equal({ en: 'Only English', vi: 'Only English' });
      expect((await admin().get(`/api/shows/${MISSING_ID}`)).status).to.equal(404);
      const malformed = await admin().get('/api/shows/not-a-uuid');
      expect(malformed.status).to.equal(400);
      expect(errorPaths(malformed)).to.include('path/showId');
    });

    it('falls back for text written in a locale no longer in SITE_LOCALES (admins still read it)', async () => {
      const show = await buildShow({ title: { fr: 'Lueur' } });
      const res = await admin().get(`/api/shows/${show.id}`);
      expect(res.body.title).to.deep.equal({ en: 'Lueur', vi: 'Lueur' });
      expect(res.body.untranslated).to.deep.equal(['title/en', 'title/vi']);
    });
  });

  describe('locales from SITE_LOCALES', () => {
    let viFirst: TestServer;
    before(async () => {
      viFirst = await startTestServer({ keepData: true, config: { siteLocales: ['vi', 'en', 'ko'], defaultLocale: 'vi' } });
    });
    after(() => viFirst.close());

    it('fills every configured locale from the default one, and requires the default locale on write', async () => {
      const show = await buildShow({ title: { vi: 'Ánh Sáng', en: 'Glow' } });
      const res = await viFirst.request('GET', `/api/shows/${show.id}`, { headers: spec.callers.admin });
      expect(res.body.title).to.deep.equal({ vi: 'Ánh Sáng', en: 'Glow', ko: 'Ánh Sáng' });
      expect(res.body.untranslated).to.deep.equal(['title/ko']);
      const noVi = await viFirst.request('POST', '/api/shows', { headers: spec.callers.admin, body: validShow('KOLOC', { title: { en: 'Glow', ko: '빛' } }) });
      expect(noVi.status).to.equal(422);
      expect(errorPaths(noVi)).to.deep.equal(['body/title/vi']);
      const ok = await viFirst.request('POST', '/api/shows', { headers: spec.callers.admin, body: validShow('KOLOC', { title: { vi: 'Ánh Sáng', ko: '빛' } }) });
      expect(ok.status).to.equal(201);
      expect(ok.body.title).to.deep.equal({ vi: 'Ánh Sáng', en: 'Ánh Sáng', ko: '빛' });
    });
  });

  describe('age rule (issue 34 §3)', () => {
    it('stores the youngest age admitted on create and update; null is every age', async () => {
      const created = await admin().post('/api/shows', validShow('ADULT', { minimumAge: 18 }));
      expect(created.status).to.equal(201);
      expect(created.body.minimumAge).to.equal(18);
      const [row] = await spec.server.db.knex('shows').where('id', created.body.id);
      expect(row.minimum_age).to.equal(18);
      const lowered = await admin().patch(`/api/shows/${created.body.id}`, { minimumAge: 0 });
      expect(lowered.status).to.equal(200);
      expect(lowered.body.minimumAge).to.equal(0);
      const cleared = await admin().patch(`/api/shows/${created.body.id}`, { minimumAge: null });
      expect(cleared.status).to.equal(200);
      expect(cleared.body.minimumAge).to.equal(null);
      expect((await admin().get(`/api/shows/${created.body.id}`)).body.minimumAge).to.equal(null);
    });

    it('refuses an age outside 0–21 on update (400 naming minimumAge) and leaves the show as it was', async () => {
      const show = await buildShow({ minimumAge: 6 });
      for (const minimumAge of [-1, 22, 'adults']) {
        const res = await admin().patch(`/api/shows/${show.id}`, { minimumAge });
        expect(res.status, String(minimumAge)).to.equal(400);
        expect(errorPaths(res)).to.include('body/minimumAge');
      }
      expect((await admin().get(`/api/shows/${show.id}`)).body.minimumAge).to.equal(6);
    });

    it('is a database rule too: a row outside 0–21 is refused by the check', async () => {
      const show = await buildShow();
      let failed = false;
      try {
        await spec.server.db.knex('shows').where('id', show.id).update({ minimum_age: 30 });
      } catch {
        failed = true;
      }
      expect(failed).to.equal(true);
    });
  });

  describe('update', () => {
    it('changes the fields sent, a per-locale field as a whole', async () => {
      const show = await buildShow({ title: { en: 'Old', vi: 'Cũ' } });
      const res = await admin().patch(`/api/shows/${show.id}`, { title: { en: 'New' }, durationMinutes: 120, code: 'RENAMED', slug: 'renamed-show', canonical: true, sortOrder: -5 });
      expect(res.status).to.equal(200);
      expect(res.body).to.include({ code: 'RENAMED', slug: 'renamed-show', durationMinutes: 120, canonical: true, sortOrder: -5, status: 'DRAFT' });
      expect(res.body.title).to.deep.equal({ en: 'New', vi: 'New' });
      expect(new Date(res.body.updatedAt).getTime()).to.be.greaterThan(new Date(show.updatedAt).getTime());
    });

    it('keeps code and slug unique (409 code_taken / slug_taken) and checks locales (422)', async () => {
      await buildShow({ code: 'TAKEN', slug: 'taken-slug' });
      const show = await buildShow();
      expect((await admin().patch(`/api/shows/${show.id}`, { code: 'TAKEN' })).body.code).to.equal('code_taken');
      const slug = await admin().patch(`/api/shows/${show.id}`, { slug: 'taken-slug' });
      expect(slug.status).to.equal(409);
      expect(slug.body.code).to.equal('slug_taken');
      const locale = await admin().patch(`/api/shows/${show.id}`, { description: { de: 'Text' } });
      expect(locale.status).to.equal(422);
      expect(errorPaths(locale)).to.include('body/description/de');
      // Its own code again is no conflict.
      expect((await admin().patch(`/api/shows/${show.id}`, { code: show.code })).status).to.equal(200);
    });

    it('refuses an empty patch (400), an unknown show (404), and any change to an archived show (409 show_archived)', async () => {
      const show = await buildShow({ status: 'ARCHIVED' });
      expect((await admin().patch(`/api/shows/${show.id}`, {})).status).to.equal(400);
      expect((await admin().patch(`/api/shows/${MISSING_ID}`, { sortOrder: 1 })).status).to.equal(404);
      const archived = await admin().patch(`/api/shows/${show.id}`, { sortOrder: 1 });
      expect(archived.status).to.equal(409);
      expect(archived.body.code).to.equal('show_archived');
    });
  });

  describe('publish and unpublish', () => {
    it('publishes a draft (publishedAt set), idempotently, and unpublishes it (publishedAt cleared)', async () => {
      const show = await buildShow();
      const published = await admin().post(`/api/shows/${show.id}/publish`);
      expect(published.status).to.equal(200);
      expect(published.body.status).to.equal('PUBLISHED');
      expect(published.body.publishedAt).to.be.a('string');
      const again = await admin().post(`/api/shows/${show.id}/publish`);
      expect(again.status).to.equal(200);
      expect(again.body.publishedAt).to.equal(published.body.publishedAt);

      const draft = await admin().post(`/api/shows/${show.id}/unpublish`);
      expect(draft.status).to.equal(200);
      expect(draft.body).to.include({ status: 'DRAFT', publishedAt: null });
      expect((await admin().post(`/api/shows/${show.id}/unpublish`)).body.status).to.equal('DRAFT');
    });

    it('refuses to publish or unpublish an archived show (409 show_archived), and 404 for an unknown one', async () => {
      const show = await buildShow({ status: 'ARCHIVED' });
      for (const action of ['publish', 'unpublish']) {
        const res = await admin().post(`/api/shows/${show.id}/${action}`);
        expect(res.status, action).to.equal(409);
        expect(res.body.code).to.equal('show_archived');
        expect((await admin().post(`/api/shows/${MISSING_ID}/${action}`)).status).to.equal(404);
      }
      const [row] = await spec.server.db.knex('shows').where('id', show.id);
      expect(row.status).to.equal('ARCHIVED');
    });
  });

  describe('archive (DELETE)', () => {
    it('archives: ARCHIVED with archivedAt; the row and its events stay; a second time is the same 200', async () => {
      const show = await buildShow({ status: 'PUBLISHED' });
      await spec.server.db.knex('show_events').insert({ show_id: show.id, starts_at: new Date(Date.now() + 86_400_000), capacity: 100 });
      const res = await admin().delete(`/api/shows/${show.id}`);
      expect(res.status).to.equal(200);
      expect(res.body.status).to.equal('ARCHIVED');
      expect(res.body.archivedAt).to.be.a('string');
      expect(await spec.server.db.knex('shows').where('id', show.id)).to.have.length(1);
      expect(await spec.server.db.knex('show_events').where('show_id', show.id)).to.have.length(1);

      const again = await admin().delete(`/api/shows/${show.id}`);
      expect(again.status).to.equal(200);
      expect(again.body.archivedAt).to.equal(res.body.archivedAt);
      expect((await admin().get(`/api/shows/${show.id}`)).body.status).to.equal('ARCHIVED');
    });

    it('refuses a canonical show (409 canonical_show) and leaves it as it was, for the superuser too', async () => {
      const show = await buildShow({ canonical: true, status: 'PUBLISHED' });
      for (const headers of [spec.callers.admin, spec.callers.superuser]) {
        const res = await as(headers).delete(`/api/shows/${show.id}`);
        expect(res.status).to.equal(409);
        expect(res.body.code).to.equal('canonical_show');
      }
      const [row] = await spec.server.db.knex('shows').where('id', show.id);
      expect(row).to.include({ status: 'PUBLISHED', archived_at: null });
      // Clearing the flag first is the deliberate way to archive it.
      expect((await admin().patch(`/api/shows/${show.id}`, { canonical: false })).status).to.equal(200);
      expect((await admin().delete(`/api/shows/${show.id}`)).body.status).to.equal('ARCHIVED');
    });

    it('answers 404 for an unknown show', async () => {
      expect((await admin().delete(`/api/shows/${MISSING_ID}`)).status).to.equal(404);
    });
  });
});
