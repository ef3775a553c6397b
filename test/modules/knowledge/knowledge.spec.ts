import { expect } from 'chai';
import { asSuperuser } from '../../helpers/server.ts';
import { apiKeyWith, catalogSpec, MISSING_ID } from '../shows/catalog.ts';

/**
 * Knowledge documents (issue 10, "Knowledge"): Staff+ reads, Admin+ writes, publish, archive and revisions;
 * `DRAFT` → `PUBLISHED` → `ARCHIVED`; every edit writes a revision (who, when, what changed).
 */
describe('knowledge: /api/ai/knowledge', () => {
  const spec = catalogSpec();
  const as = spec.as;
  const admin = () => as(spec.callers.admin);
  const staff = () => as(spec.callers.staff);
  let n = 0;
  const topic = () => `topic-${++n}`;

  async function create(fields: Record<string, unknown> = {}) {
    const res = await admin().post('/api/ai/knowledge', { topic: topic(), locale: 'en', title: 'Dress code', body: 'Smart casual.', tags: ['policy'], ...fields });
    expect(res.status, res.text).to.equal(201);
    return res.body;
  }

  it('creates a draft with revision 1 that records who and every field', async () => {
    const before = Date.now();
    const doc = await create({ tags: ['policy', 'dress-code', 'policy'] });
    expect(doc).to.include({ locale: 'en', title: 'Dress code', body: 'Smart casual.', status: 'DRAFT', revision: 1, publishedAt: null, archivedAt: null });
    expect(doc.tags, 'duplicates dropped').to.deep.equal(['policy', 'dress-code']);
    expect(Object.keys(doc).sort()).to.deep.equal(['archivedAt', 'body', 'createdAt', 'id', 'locale', 'publishedAt', 'revision', 'status', 'tags', 'title', 'topic', 'updatedAt']);

    const revisions = await admin().get(`/api/ai/knowledge/${doc.id}/revisions`);
    expect(revisions.status).to.equal(200);
    expect(revisions.body.documentId).to.equal(doc.id);
    const [first] = revisions.body.items;
    expect(first.revision).to.equal(1);
    expect(first.action).to.equal('CREATE');
    expect(first.actor.kind).to.equal('account');
    expect(first.actor.label).to.match(/@/);
    expect(new Date(first.createdAt).getTime()).to.be.at.least(before - 1000);
    expect(first.changes).to.deep.include({ field: 'title', before: null, after: 'Dress code' });
    expect(first.changes).to.deep.include({ field: 'tags', before: null, after: ['policy', 'dress-code'] });
    expect(first.changes).to.deep.include({ field: 'status', before: null, after: 'DRAFT' });
  });

  it('updates fields with a revision of what changed; a no-op writes none', async () => {
    const doc = await create();
    const res = await admin().patch(`/api/ai/knowledge/${doc.id}`, { title: 'Dress code', body: 'Smart casual; no flip-flops.', tags: ['policy', 'attire'] });
    expect(res.status, res.text).to.equal(200);
    expect(res.body).to.include({ body: 'Smart casual; no flip-flops.', revision: 2 });
    expect(res.body.tags).to.deep.equal(['policy', 'attire']);
    const revisions = (await admin().get(`/api/ai/knowledge/${doc.id}/revisions`)).body.items;
    expect(revisions.map((r: { revision: number }) => r.revision), 'newest first').to.deep.equal([2, 1]);
    expect(revisions[0].action).to.equal('UPDATE');
    expect(revisions[0].changes).to.deep.equal([
      { field: 'body', before: 'Smart casual.', after: 'Smart casual; no flip-flops.' },
      { field: 'tags', before: ['policy'], after: ['policy', 'attire'] },
    ]);

    const same = await admin().patch(`/api/ai/knowledge/${doc.id}`, { title: 'Dress code' });
    expect(same.status).to.equal(200);
    expect(same.body.revision).to.equal(2);
    expect((await admin().get(`/api/ai/knowledge/${doc.id}/revisions`)).body.items).to.have.length(2);
  });

  it('moves DRAFT → PUBLISHED → ARCHIVED, idempotently, and refuses illegal moves with 409', async () => {
    const doc = await create();
    const published = await admin().post(`/api/ai/knowledge/${doc.id}/publish`);
    expect(published.status).to.equal(200);
    expect(published.body).to.include({ status: 'PUBLISHED', revision: 2 });
    expect(published.body.publishedAt).to.be.a('string');
    const again = await admin().post(`/api/ai/knowledge/${doc.id}/publish`);
    expect(again.body).to.include({ status: 'PUBLISHED', revision: 2, publishedAt: published.body.publishedAt });

    const edited = await admin().patch(`/api/ai/knowledge/${doc.id}`, { body: 'Live edit.' });
    expect(edited.body).to.include({ status: 'PUBLISHED', revision: 3, body: 'Live edit.' });

    const archived = await admin().post(`/api/ai/knowledge/${doc.id}/archive`);
    expect(archived.body).to.include({ status: 'ARCHIVED', revision: 4 });
    expect(archived.body.archivedAt).to.be.a('string');
    expect((await admin().post(`/api/ai/knowledge/${doc.id}/archive`)).body.revision, 'archiving again changes nothing').to.equal(4);

    const republish = await admin().post(`/api/ai/knowledge/${doc.id}/publish`);
    expect(republish.status).to.equal(409);
    expect(republish.body.code).to.equal('illegal_transition');
    const edit = await admin().patch(`/api/ai/knowledge/${doc.id}`, { body: 'Too late.' });
    expect(edit.status).to.equal(409);
    expect(edit.body.code).to.equal('knowledge_archived');

    const revisions = (await admin().get(`/api/ai/knowledge/${doc.id}/revisions`)).body.items;
    expect(revisions.map((r: { action: string }) => r.action)).to.deep.equal(['ARCHIVE', 'UPDATE', 'PUBLISH', 'CREATE']);
    expect(revisions[0].changes).to.deep.equal([{ field: 'status', before: 'PUBLISHED', after: 'ARCHIVED' }]);

    const draft = await create();
    const discarded = await admin().post(`/api/ai/knowledge/${draft.id}/archive`);
    expect(discarded.body).to.include({ status: 'ARCHIVED', publishedAt: null });
  });

  it('keeps one live document per topic and locale (409 topic_taken), freed by archive', async () => {
    const t = topic();
    const first = await create({ topic: t });
    const taken = await admin().post('/api/ai/knowledge', { topic: t, locale: 'en', title: 'Again', body: 'Again.' });
    expect(taken.status).to.equal(409);
    expect(taken.body.code).to.equal('topic_taken');
    expect((await admin().post('/api/ai/knowledge', { topic: t, locale: 'vi', title: 'Lại', body: 'Lại.' })).status, 'another locale').to.equal(201);
    const other = await create();
    const moved = await admin().patch(`/api/ai/knowledge/${other.id}`, { topic: t });
    expect(moved.status).to.equal(409);
    expect(moved.body.code).to.equal('topic_taken');
    expect((await admin().get(`/api/ai/knowledge/${other.id}`)).body.revision, 'nothing half-written').to.equal(1);
    await admin().post(`/api/ai/knowledge/${first.id}/archive`);
    expect((await admin().patch(`/api/ai/knowledge/${other.id}`, { topic: t })).status).to.equal(200);
  });

  it('refuses bad input: unknown locale 422, undeclared fields and bad values 400, empty patch 400, unknown id 404', async () => {
    const fr = await admin().post('/api/ai/knowledge', { topic: topic(), locale: 'fr', title: 'Code', body: 'Tenue.' });
    expect(fr.status).to.equal(422);
    expect(fr.body.code).to.equal('unknown_locale');
    expect(fr.body.errors[0].path).to.equal('body/locale');
    expect((await admin().post('/api/ai/knowledge', { topic: 'Bad Topic', locale: 'en', title: 'x', body: 'y' })).status).to.equal(400);
    expect((await admin().post('/api/ai/knowledge', { topic: topic(), locale: 'en', title: 'x', body: 'y', status: 'PUBLISHED' })).status).to.equal(400);
    expect((await admin().post('/api/ai/knowledge', { topic: topic(), locale: 'en', title: 'x' })).status).to.equal(400);
    expect((await admin().post('/api/ai/knowledge', { topic: topic(), locale: 'en', title: 'x', body: 'y'.repeat(20001) })).status).to.equal(400);
    const doc = await create();
    expect((await admin().patch(`/api/ai/knowledge/${doc.id}`, {})).status).to.equal(400);
    expect((await admin().patch(`/api/ai/knowledge/${doc.id}`, { locale: 'de' })).body.code).to.equal('unknown_locale');
    for (const path of ['', '/revisions']) expect((await admin().get(`/api/ai/knowledge/${MISSING_ID}${path}`)).status).to.equal(404);
    expect((await admin().patch(`/api/ai/knowledge/${MISSING_ID}`, { body: 'x' })).status).to.equal(404);
    expect((await admin().post(`/api/ai/knowledge/${MISSING_ID}/publish`)).status).to.equal(404);
    expect((await admin().post(`/api/ai/knowledge/${MISSING_ID}/archive`)).status).to.equal(404);
    expect((await admin().get('/api/ai/knowledge/not-a-uuid')).status).to.equal(400);
  });

  it('lists with filters (status, locale, tag, q) and paging, newest change first', async () => {
    const marker = `zq${Date.now()}`;
    const a = await create({ title: `${marker} alpha`, tags: ['family'] });
    const b = await create({ locale: 'vi', title: `${marker} beta`, tags: ['policy'] });
    const c = await create({ body: `About ${marker.toUpperCase()} gamma`, tags: ['family', 'policy'] });
    await admin().post(`/api/ai/knowledge/${b.id}/publish`);
    const ids = async (query: string) => (await admin().get(`/api/ai/knowledge?q=${marker}&${query}`)).body.items.map((d: { id: string }) => d.id);
    expect(await ids(''), 'b changed last').to.deep.equal([b.id, c.id, a.id]);
    expect(await ids('status=PUBLISHED')).to.deep.equal([b.id]);
    expect(await ids('status=DRAFT&tag=family')).to.deep.equal([c.id, a.id]);
    expect(await ids('locale=vi')).to.deep.equal([b.id]);
    expect(await ids('tag=policy')).to.deep.equal([b.id, c.id]);
    const page = await admin().get(`/api/ai/knowledge?q=${marker}&limit=1&offset=1`);
    expect(page.body).to.include({ total: 3, limit: 1, offset: 1 });
    expect(page.body.items.map((d: { id: string }) => d.id)).to.deep.equal([c.id]);
    expect((await admin().get('/api/ai/knowledge?q=%25%25nothing')).body.total, '% taken literally').to.equal(0);
    expect((await admin().get('/api/ai/knowledge?status=GONE')).status).to.equal(400);
  });

  it('access: anonymous 401 everywhere; staff neither read (admin+, spec §4.1) nor write nor see revisions; admins and superusers do all', async () => {
    const doc = await create();
    const reads = [
      () => as({}).get('/api/ai/knowledge'),
      () => as({}).get(`/api/ai/knowledge/${doc.id}`),
      () => as({}).get(`/api/ai/knowledge/${doc.id}/revisions`),
    ];
    const writes = (caller: ReturnType<typeof as>) => [
      () => caller.post('/api/ai/knowledge', { topic: topic(), locale: 'en', title: 'x', body: 'y' }),
      () => caller.patch(`/api/ai/knowledge/${doc.id}`, { body: 'Changed by someone.' }),
      () => caller.post(`/api/ai/knowledge/${doc.id}/publish`),
      () => caller.post(`/api/ai/knowledge/${doc.id}/archive`),
    ];
    for (const call of [...reads, ...writes(as({}))]) expect((await call()).status).to.equal(401);
    expect((await staff().get('/api/ai/knowledge')).status).to.equal(403);
    expect((await staff().get(`/api/ai/knowledge/${doc.id}`)).status).to.equal(403);
    // The published documents stay readable by anyone through the assistant's read-only route.
    expect((await as({}).get('/api/ai/customer-support/knowledge')).status).to.equal(200);
    expect((await staff().get(`/api/ai/knowledge/${doc.id}/revisions`)).status).to.equal(403);
    for (const call of writes(staff())) expect((await call()).status).to.equal(403);
    const after = (await admin().get(`/api/ai/knowledge/${doc.id}`)).body;
    expect(after).to.include({ status: 'DRAFT', revision: 1, body: 'Smart casual.' });

    const sudo = as(asSuperuser);
    const edited = await sudo.patch(`/api/ai/knowledge/${doc.id}`, { body: 'By the superuser token.' });
    expect(edited.status).to.equal(200);
    const [revision] = (await sudo.get(`/api/ai/knowledge/${doc.id}/revisions`)).body.items;
    expect(revision.actor).to.deep.equal({ kind: 'superuser-token', id: null, label: 'superuser-token' });
  });

  it('takes API keys with knowledge:read / knowledge:write for their own operations, recorded as the key', async () => {
    const doc = await create();
    const reader = await apiKeyWith('knowledge:read');
    expect((await as(reader).get(`/api/ai/knowledge/${doc.id}`)).status).to.equal(200);
    expect((await as(reader).get(`/api/ai/knowledge/${doc.id}/revisions`)).status).to.equal(200);
    const refused = await as(reader).post(`/api/ai/knowledge/${doc.id}/publish`);
    expect(refused.status).to.equal(403);
    expect(refused.body.code).to.equal('missing_permission');
    const writer = await apiKeyWith('knowledge:write');
    expect((await as(writer).post(`/api/ai/knowledge/${doc.id}/publish`)).status).to.equal(200);
    const [revision] = (await as(reader).get(`/api/ai/knowledge/${doc.id}/revisions`)).body.items;
    expect(revision.actor.kind).to.equal('api-key');
    expect(revision.actor.id).to.be.a('string');
  });
});
