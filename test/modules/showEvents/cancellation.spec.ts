import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { createDomainEventBus, subscriber, type DomainContext, type DomainEvents } from '../../../server/domain/events.ts';
import { errorPaths } from '../../helpers/accounts.ts';
import { buildApiKey, permissionMap } from '../../helpers/factories.ts';
import { buildEvent } from './factories.ts';
import { inDays, specServer } from './helpers.ts';
import { buildShow } from '../shows/factories.ts';

describe('showEvents: the cancellation flow (cancel and archive)', () => {
  const spec = specServer();

  const row = (id: string) => spec.server.db.knex('show_events').where('id', id).first();

  it('is admin+: 401 anonymous, 403 staff, API keys need show-events:cancel (show-events:write is not enough)', async () => {
    const event = await buildEvent(await buildShow({ status: 'PUBLISHED' }));
    expect((await spec.server.request('POST', `/api/show-events/${event.id}/cancel`, { body: { reason: 'x' } })).status).to.equal(401);
    expect((await spec.server.request('DELETE', `/api/show-events/${event.id}`)).status).to.equal(401);
    expect((await spec.server.request('POST', `/api/show-events/${event.id}/cancel`, { headers: spec.as.staff, body: { reason: 'x' } })).status).to.equal(403);
    expect((await spec.server.request('DELETE', `/api/show-events/${event.id}`, { headers: spec.as.staff })).status).to.equal(403);
    const writer = await buildApiKey({ permissions: permissionMap('show-events:write') });
    expect((await spec.server.request('DELETE', `/api/show-events/${event.id}`, { headers: { 'x-api-key': writer.key } })).body.code).to.equal('missing_permission');
    expect((await row(event.id)).status).to.equal('SCHEDULED');
  });

  it('cancels: CANCELLED with time and reason, sales closed; re-running changes nothing and answers the same event', async () => {
    const event = await buildEvent(await buildShow({ status: 'PUBLISHED' }), { salesOpen: true, startsAt: inDays(4) });
    const res = await spec.server.request('POST', `/api/show-events/${event.id}/cancel`, { headers: spec.as.admin, body: { reason: 'Lead performer injured' } });
    expect(res.status).to.equal(200);
    expect(res.body.alreadyCancelled).to.equal(false);
    expect(res.body.event).to.include({ id: event.id, status: 'CANCELLED', salesOpen: false, cancellationReason: 'Lead performer injured' });
    expect(res.body.event.cancelledAt).to.be.a('string');
    const stored = await row(event.id);
    expect(stored).to.include({ status: 'CANCELLED', sales_open: false, cancellation_reason: 'Lead performer injured' });

    const again = await spec.server.request('POST', `/api/show-events/${event.id}/cancel`, { headers: spec.as.admin, body: { reason: 'Another reason' } });
    expect(again.status).to.equal(200);
    expect(again.body.alreadyCancelled).to.equal(true);
    expect(again.body.event).to.deep.equal(res.body.event);
    expect(await row(event.id)).to.deep.equal(stored);
    const archived = await spec.server.request('DELETE', `/api/show-events/${event.id}`, { headers: spec.as.admin });
    expect(archived.status).to.equal(200);
    expect(archived.body.event).to.deep.equal(res.body.event);
  });

  it('archive (DELETE) is the same flow without a reason, and deletes nothing', async () => {
    const show = await buildShow({ status: 'PUBLISHED' });
    const event = await buildEvent(show, { salesOpen: true });
    const before = await spec.server.db.knex('show_events').count({ n: '*' }).first();
    const res = await spec.server.request('DELETE', `/api/show-events/${event.id}`, { headers: spec.as.admin });
    expect(res.status).to.equal(200);
    expect(res.body.event).to.include({ status: 'CANCELLED', salesOpen: false, cancellationReason: null });
    expect(await spec.server.db.knex('show_events').count({ n: '*' }).first()).to.deep.equal(before);
    expect((await spec.server.request('GET', `/api/show-events/${event.id}`, { headers: spec.as.staff })).body.status).to.equal('CANCELLED');
    expect(await spec.server.db.knex('shows').where('id', show.id).first()).to.include({ id: show.id });
  });

  it('409 event_completed for a completed event; 404 unknown; 400 without a reason', async () => {
    const done = await buildEvent(await buildShow({ status: 'PUBLISHED' }), { status: 'COMPLETED', startsAt: inDays(-2), completedAt: inDays(-2) });
    for (const res of [
      await spec.server.request('POST', `/api/show-events/${done.id}/cancel`, { headers: spec.as.admin, body: { reason: 'too late' } }),
      await spec.server.request('DELETE', `/api/show-events/${done.id}`, { headers: spec.as.admin }),
    ]) {
      expect([res.status, res.body.code]).to.deep.equal([409, 'event_completed']);
    }
    expect((await row(done.id)).status).to.equal('COMPLETED');
    expect((await spec.server.request('DELETE', `/api/show-events/${randomUUID()}`, { headers: spec.as.admin })).status).to.equal(404);
    const bare = await spec.server.request('POST', `/api/show-events/${done.id}/cancel`, { headers: spec.as.admin, body: {} });
    expect(bare.status).to.equal(400);
    expect(errorPaths(bare)).to.include('body/reason');
    const empty = await spec.server.request('POST', `/api/show-events/${done.id}/cancel`, { headers: spec.as.admin, body: { reason: '' } });
    expect(errorPaths(empty)).to.include('body/reason');
  });

  /** The cancellation flow as one subscriber of `showEvent.cancelled` sees it: the payload and its unit of work. */
  type CancellationContext = DomainEvents['showEvent.cancelled'] & DomainContext;
  const registerCancellationHook = (name: string, part: (context: CancellationContext) => Promise<Record<string, unknown>>, order = 100) =>
    spec.server.app.context.events.attachForTest(
      subscriber({ name, event: 'showEvent.cancelled', phase: 'in-transaction', order, handle: (payload, context) => part({ ...context, ...payload }) }),
    );

  describe('subscribers of showEvent.cancelled (the parts other modules add)', () => {
    it('run in the flow’s transaction, see the cancelled event, report their summary, and defer work until the commit', async () => {
      const event = await buildEvent(await buildShow({ status: 'PUBLISHED' }), { staffNotes: 'before' });
      const seen: Array<Pick<CancellationContext, 'reason' | 'alreadyCancelled'> & { status: string; accountId: string | null }> = [];
      const committed: string[] = [];
      const remove = registerCancellationHook('test-notes', async ({ trx, event: cancelled, reason, actor, alreadyCancelled, afterCommit }) => {
        // Through the transaction the row is already CANCELLED; the write below commits or rolls back with it.
        const current = await trx('show_events').where('id', cancelled.id).first();
        seen.push({ reason, alreadyCancelled, status: current.status, accountId: actor.accountId });
        if (alreadyCancelled) return { notesWritten: 0 };
        await trx('show_events').where('id', cancelled.id).update({ staff_notes: 'guests told' });
        afterCommit(() => {
          committed.push(cancelled.id);
        });
        return { notesWritten: 1 };
      });
      try {
        const res = await spec.server.request('POST', `/api/show-events/${event.id}/cancel`, { headers: spec.as.admin, body: { reason: 'Storm' } });
        expect(res.status).to.equal(200);
        expect(res.body.hooks).to.deep.include({ name: 'test-notes', summary: { notesWritten: 1 } });
        expect(committed).to.deep.equal([event.id]);
        expect((await row(event.id)).staff_notes).to.equal('guests told');
        const again = await spec.server.request('POST', `/api/show-events/${event.id}/cancel`, { headers: spec.as.admin, body: { reason: 'Storm' } });
        expect(again.body.hooks).to.deep.include({ name: 'test-notes', summary: { notesWritten: 0 } });
        expect(seen.map((s) => [s.status, s.reason, s.alreadyCancelled])).to.deep.equal([
          ['CANCELLED', 'Storm', false],
          ['CANCELLED', 'Storm', true],
        ]);
        expect(seen[0].accountId).to.be.a('string');
      } finally {
        remove();
      }
    });

    it('one that fails rolls the whole cancellation back, earlier hooks’ writes included', async () => {
      const event = await buildEvent(await buildShow({ status: 'PUBLISHED' }), { salesOpen: true, staffNotes: 'before' });
      const committed: string[] = [];
      const removeFirst = registerCancellationHook('test-writer', async ({ trx, event: cancelled, afterCommit }) => {
        await trx('show_events').where('id', cancelled.id).update({ staff_notes: 'written by a hook' });
        afterCommit(() => {
          committed.push('writer');
        });
        return { written: 1 };
      });
      const removeSecond = registerCancellationHook(
        'test-refusal',
        async () => {
          throw new Error('the payment gateway refused the refund requests');
        },
        101,
      );
      try {
        const res = await spec.server.request('POST', `/api/show-events/${event.id}/cancel`, { headers: spec.as.admin, body: { reason: 'Storm' } });
        expect([res.status, res.body.code]).to.deep.equal([500, 'internal_error']);
        expect(await row(event.id)).to.include({ status: 'SCHEDULED', sales_open: true, staff_notes: 'before', cancelled_at: null, cancellation_reason: null });
        expect(committed).to.deep.equal([]);
      } finally {
        removeFirst();
        removeSecond();
      }
      const after = await spec.server.request('DELETE', `/api/show-events/${event.id}`, { headers: spec.as.admin });
      const names = after.body.hooks.map((hook: { name: string }) => hook.name);
      expect(names).to.not.include('test-writer');
      expect(names).to.not.include('test-refusal');
      expect(after.body.event.status).to.equal('CANCELLED');
    });

    it('a name is declared once, and two subscribers of one event never share an order', () => {
      const part = (name: string, order: number) => subscriber({ name, event: 'showEvent.cancelled', phase: 'in-transaction', order, handle: async () => ({}) });
      expect(() => createDomainEventBus([part('test-once', 1), part('test-once', 2)])).to.throw(/declared twice/);
      expect(() => createDomainEventBus([part('test-a', 1), part('test-b', 1)])).to.throw(/share order 1/);
    });
  });
});
