import { raw } from 'objection';
import { assistantFor } from '../../../assistant/index.ts';
import type { AppContext } from '../../../platform/context.ts';
import { ChatTurn } from '../models.ts';
import { polishAnswer, RetryTurn, TERMINAL, type TurnChannel, type TurnOptions, type TurnOutcome, type TurnRun } from '../turns.ts';
import { startTypingLoop, systemClock } from '../typing.ts';

/** The database's clock, for the turn's timings (as `received_at`, its default, is). */
const dbNow = () => raw('CURRENT_TIMESTAMP');

/**
 * One run of a background turn (the job step of the `chatPlatform.turn` and `messaging.reply` queues; the flow is
 * described in ../turns.ts). No unit of work: each step is one conditional update of the turn's row, committed on
 * its own, so a concurrent run sees the claim at once.
 */
export async function runTurn(app: AppContext, turnId: string, channel: TurnChannel, run: TurnRun, options: TurnOptions = {}): Promise<TurnOutcome> {
  const knex = app.db.knex;
  const log = run.log.child({ turnId });
  const final = run.attempt > run.retryLimit;
  const row = await ChatTurn.query(knex).findById(turnId);
  if (!row) {
    log.warn('chat turn not found (already removed)');
    return { status: 'missing' };
  }
  if (TERMINAL.includes(row.status)) return { status: row.status };

  const finish = async (status: 'SENT' | 'FAILED', error?: { code: string; detail: string }) => {
    const now = dbNow();
    await ChatTurn.query(knex)
      .patch({
        status,
        guestText: null,
        replyText: null,
        finishedAt: now,
        ...(status === 'SENT' ? { sentAt: now, errorCode: null, errorDetail: null } : {}),
        ...(error ? { errorCode: error.code, errorDetail: error.detail.slice(0, 500) } : {}),
      })
      .where({ id: turnId })
      .whereNotIn('status', TERMINAL);
    const timings = await ChatTurn.query(knex).findById(turnId).select('received_at', 'generation_started_at', 'generated_at', 'send_started_at', 'finished_at', 'attempts');
    const ms = (a?: Date | null, b?: Date | null) => (a && b ? new Date(b).getTime() - new Date(a).getTime() : undefined);
    log.info(
      {
        status,
        errorCode: error?.code,
        attempts: timings?.attempts,
        generationMs: ms(timings?.generationStartedAt, timings?.generatedAt),
        sendMs: ms(timings?.sendStartedAt, timings?.finishedAt),
        totalMs: ms(timings?.receivedAt, timings?.finishedAt),
      },
      `chat turn ${status === 'SENT' ? 'sent' : 'failed'}`,
    );
    return { status, errorCode: error?.code } satisfies TurnOutcome;
  };

  if (row.status === 'SENDING') {
    // An earlier run was sending when it died or outlived its time: the platform may have the message already.
    log.error('chat turn found mid-send: delivery unknown, not sent again');
    return finish('FAILED', { code: 'delivery_unknown', detail: 'An earlier attempt was interrupted while sending.' });
  }

  const typing = channel.typing(row);
  const loop = typing ? startTypingLoop(typing, log, options.clock ?? systemClock) : undefined;
  try {
    let text = row.replyText;
    if (row.status !== 'GENERATED' || text === null) {
      const claimed = await ChatTurn.query(knex)
        .patch({ status: 'GENERATING', attempts: raw('attempts + 1'), generationStartedAt: dbNow() })
        .where({ id: turnId })
        .whereIn('status', ['QUEUED', 'GENERATING']);
      if (!claimed) return { status: 'busy' };
      let reply;
      try {
        reply = await (await assistantFor(app)).reply({
          messages: [{ role: 'user', text: row.guestText ?? '' }],
          locale: row.locale,
          channel: row.channel,
          traceId: turnId,
        });
        if (!reply.text.trim()) throw new Error('the agent answered nothing');
      } catch (err) {
        log.error({ err }, 'the agent failed on a chat turn');
        if (final) return finish('FAILED', { code: 'agent_error', detail: (err as Error)?.message ?? 'agent error' });
        await ChatTurn.query(knex).patch({ status: 'QUEUED', errorCode: 'agent_error' }).where({ id: turnId, status: 'GENERATING' });
        throw new RetryTurn('the agent failed; retrying', { cause: err });
      }
      const invalid = reply.audit.invalid;
      text = await polishAnswer(app, log, reply, row.locale, options.routes);
      await ChatTurn.query(knex)
        .patch({ status: 'GENERATED', replyText: text, invalidLinks: invalid.length, generatedAt: dbNow() })
        .where({ id: turnId, status: 'GENERATING' });
    } else {
      await ChatTurn.query(knex).patch({ attempts: raw('attempts + 1') }).where({ id: turnId });
    }

    const sending = await ChatTurn.query(knex).patch({ status: 'SENDING', sendStartedAt: dbNow() }).where({ id: turnId, status: 'GENERATED' });
    if (!sending) return { status: 'busy' };
    try {
      await channel.send(row, text);
    } catch (err) {
      const failure = channel.describe(err);
      log.error({ ...failure.fields, code: failure.code, retryable: failure.retryable }, `chat platform send failed: ${failure.detail}`);
      if (failure.retryable && !final) {
        await ChatTurn.query(knex).patch({ status: 'GENERATED', errorCode: failure.code }).where({ id: turnId, status: 'SENDING' });
        throw new RetryTurn(`send failed (${failure.code}); retrying`, { cause: err });
      }
      return finish('FAILED', { code: failure.code, detail: failure.detail });
    }
    return finish('SENT');
  } catch (err) {
    if (err instanceof RetryTurn) throw err;
    // Anything unexpected (the database, a bug): retried while attempts remain, then the turn ends FAILED.
    log.error({ err }, 'chat turn failed unexpectedly');
    if (!final) throw err;
    return finish('FAILED', { code: 'internal_error', detail: (err as Error)?.message ?? 'error' });
  } finally {
    await loop?.stop();
  }
}
