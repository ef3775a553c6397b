import type { Knex } from 'knex';
import { assistantApiBaseUrl } from '../../assistant/address.ts';
import { readRoutes, type RouteFacts } from '../../assistant/facts.ts';
import { assistantFor, repairLinks, type AssistantChannel, type AssistantReply } from '../../assistant/index.ts';
import { closestRoute } from '../../assistant/linkAudit.ts';
import { createVenueData } from '../../assistant/venueData.ts';
import type { AppContext } from '../../platform/context.ts';
import type { Logger } from '../../platform/logger.ts';
import { startTypingLoop, systemClock, type Clock, type TypingAdapter } from './typing.ts';

/**
 * A background chat turn (spec §3.1, §4.7): one guest message from a chat platform, answered by the agent and
 * sent back through the platform, durably (a job per turn, retried by the job engine) and at most once.
 *
 * QUEUED → GENERATING → GENERATED → SENDING → SENT | FAILED, on the `chat_turns` row, each step claimed with a
 * conditional update so two runs of one job (a retry racing a late first run) never both send:
 * - generation: the agent (no time-out of ours), then the link audit: invalid internal links are replaced by the
 *   closest valid route; the answer is kept on the row so a retry of the send does not generate again;
 * - sending: a failure the platform certainly did not act on (no connection, 429, 5xx) is retried on the next
 *   attempt; a failure whose outcome is unknown (time-out after the request left) is not, nor a run that finds
 *   the row already SENDING (an earlier run died mid-send): the turn fails instead of sending twice;
 * - cleanup always runs: the typing loop's final off, and once the turn has ended (SENT or FAILED) the guest's
 *   text and the answer are deleted from the row; status, attempts, error code and timings stay.
 */

export type TurnSource = 'chat-platform' | 'whatsapp';
export type TurnStatus = 'QUEUED' | 'GENERATING' | 'GENERATED' | 'SENDING' | 'SENT' | 'FAILED';

export interface TurnRow {
  id: string;
  source: TurnSource;
  channel: AssistantChannel;
  recipient: string;
  external_message_id: string | null;
  locale: string;
  status: TurnStatus;
  guest_text: string | null;
  reply_text: string | null;
  attempts: number;
}

export interface NewTurn {
  source: TurnSource;
  channel: AssistantChannel;
  recipient: string;
  externalMessageId?: string;
  locale: string;
  text: string;
}

/** The insert of a new turn (`QUEUED`); a repeated platform message id (a duplicate delivery) inserts nothing. */
export function turnInsert(knex: Knex | Knex.Transaction, turn: NewTurn & { id?: string }) {
  return knex('chat_turns')
    .insert({
      ...(turn.id ? { id: turn.id } : {}),
      source: turn.source,
      channel: turn.channel,
      recipient: turn.recipient,
      external_message_id: turn.externalMessageId ?? null,
      locale: turn.locale,
      guest_text: turn.text,
    })
    .onConflict(['source', 'external_message_id'])
    .ignore();
}

/** Inserts a QUEUED turn; null when the platform's message id was already received (a duplicate delivery). */
export async function insertTurn(knex: Knex | Knex.Transaction, turn: NewTurn): Promise<string | null> {
  const rows = (await turnInsert(knex, turn).returning('id')) as Array<{ id: string }>;
  return rows[0]?.id ?? null;
}

/** What a platform's send failure means for the turn. */
export interface SendFailure {
  code: string;
  detail: string;
  /** A retry may help and cannot send twice. */
  retryable: boolean;
  /** Log fields (the platform's own error code, HTTP status …); never secrets. */
  fields: Record<string, unknown>;
}

/** One platform's side of a turn. */
export interface TurnChannel {
  send(turn: TurnRow, text: string): Promise<void>;
  /** The typing action for this turn, or undefined when the platform has none (no loop runs). */
  typing(turn: TurnRow): TypingAdapter | undefined;
  describe(err: unknown): SendFailure;
}

export interface TurnRun {
  attempt: number;
  retryLimit: number;
  log: Logger;
}

export interface TurnOptions {
  clock?: Clock;
  /** The locale's public routes, as candidates for replacing invalid links (default: fetched from the route data). */
  routes?: (locale: string) => Promise<string[]>;
}

/** Thrown to make the job engine run the turn again. */
export class RetryTurn extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'RetryTurn';
  }
}

export interface TurnOutcome {
  status: TurnStatus | 'missing' | 'busy';
  errorCode?: string;
}

const TERMINAL: TurnStatus[] = ['SENT', 'FAILED'];

/** The values the platform must never receive (secrets of this server), whatever the agent wrote. */
function secretsOf(app: AppContext): string[] {
  const c = app.config;
  return [
    c.chatApi.token,
    c.messaging.accessToken,
    c.messaging.appSecret,
    ...Object.values(c.accessTokens),
    ...c.superuserApiTokens,
    c.vnpayHashSecret,
    c.posthogApiKey,
  ].filter((s): s is string => typeof s === 'string' && s.length >= 8);
}

export function redactSecrets(text: string, secrets: string[]): string {
  let out = text;
  for (const secret of secrets) out = out.split(secret).join('[redacted]');
  return out;
}

/** The locale's public routes from the assistant-safe route data (`catalog/routes`, over HTTP like the agent's tools). */
export function routeDataFetcher(app: AppContext, log: Logger): (locale: string) => Promise<string[]> {
  const venueData = createVenueData({ baseUrl: () => assistantApiBaseUrl(app, app.config), timeoutMs: app.config.assistantApiTimeoutMs });
  return async (locale) => {
    try {
      return readRoutes(await venueData.routes(locale)).all;
    } catch (err) {
      log.warn({ err: (err as Error).message }, 'route data unavailable for the link repair: the answer’s own links only');
      return [];
    }
  };
}

/**
 * Chat platforms show text as it is (no Markdown): `[label](url)` becomes `label: url`, `**bold**` and
 * `__bold__` lose their marks, list dashes become bullets.
 */
export function plainText(text: string): string {
  return text
    .replace(/\[([^\]\n]+)\]\(\s*<?([^)\s>]+)>?\s*\)/g, (_, label: string, url: string) => (label.trim() === url ? url : `${label.trim()}: ${url}`))
    .replace(/\*\*([^*\n]+)\*\*/g, '$1')
    .replace(/__([^_\n]+)__/g, '$1')
    .replace(/^[ \t]*[-*][ \t]+/gm, '• ');
}

/**
 * What goes out to a platform: the agent's text with its invalid internal links replaced by the closest valid
 * route (the answer's own valid links and the locale's route data), any secret of this server redacted, and Markdown made plain text.
 */
export async function polishAnswer(
  app: AppContext,
  log: Logger,
  reply: AssistantReply,
  locale: string,
  routes: (locale: string) => Promise<string[]> = routeDataFetcher(app, log),
): Promise<string> {
  let answer = reply.text;
  const invalid = reply.audit.invalid;
  if (invalid.length) {
    // The agent's audit names each invalid link's closest valid route; a link it could not place (no route data
    // in its turn) gets the closest of the locale's public routes and the answer's own valid links.
    const replacements: Record<string, string> = { ...reply.audit.replacements };
    const unplaced = invalid.filter((link) => !replacements[link]);
    if (unplaced.length) {
      const all = [...new Set([...(await routes(locale)), ...reply.links])];
      const facts: RouteFacts = { named: {}, showUrls: {}, bookingUrls: {}, all };
      for (const link of unplaced) {
        const closest = closestRoute(link, facts);
        if (closest) replacements[link] = closest;
      }
    }
    answer = repairLinks(answer, { replacements });
    log.warn({ invalid, replacements }, '[link-audit] invalid internal links replaced by the closest valid route in a chat answer');
  }
  return redactSecrets(plainText(answer), secretsOf(app)).trim();
}

export async function runTurn(app: AppContext, turnId: string, channel: TurnChannel, run: TurnRun, options: TurnOptions = {}): Promise<TurnOutcome> {
  const knex = app.db.knex;
  const log = run.log.child({ turnId });
  const final = run.attempt > run.retryLimit;
  const row = (await knex('chat_turns').where({ id: turnId }).first()) as TurnRow | undefined;
  if (!row) {
    log.warn('chat turn not found (already removed)');
    return { status: 'missing' };
  }
  if (TERMINAL.includes(row.status)) return { status: row.status };

  const finish = async (status: 'SENT' | 'FAILED', error?: { code: string; detail: string }) => {
    const now = knex.fn.now();
    await knex('chat_turns')
      .where({ id: turnId })
      .whereNotIn('status', TERMINAL)
      .update({
        status,
        guest_text: null,
        reply_text: null,
        finished_at: now,
        updated_at: now,
        ...(status === 'SENT' ? { sent_at: now, error_code: null, error_detail: null } : {}),
        ...(error ? { error_code: error.code, error_detail: error.detail.slice(0, 500) } : {}),
      });
    const timings = await knex('chat_turns').where({ id: turnId }).first('received_at', 'generation_started_at', 'generated_at', 'send_started_at', 'finished_at', 'attempts');
    const ms = (a?: Date | null, b?: Date | null) => (a && b ? new Date(b).getTime() - new Date(a).getTime() : undefined);
    log.info(
      {
        status,
        errorCode: error?.code,
        attempts: timings?.attempts,
        generationMs: ms(timings?.generation_started_at, timings?.generated_at),
        sendMs: ms(timings?.send_started_at, timings?.finished_at),
        totalMs: ms(timings?.received_at, timings?.finished_at),
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
    let text = row.reply_text;
    if (row.status !== 'GENERATED' || text === null) {
      const claimed = await knex('chat_turns')
        .where({ id: turnId })
        .whereIn('status', ['QUEUED', 'GENERATING'])
        .update({ status: 'GENERATING', attempts: knex.raw('attempts + 1'), generation_started_at: knex.fn.now(), updated_at: knex.fn.now() });
      if (!claimed) return { status: 'busy' };
      let reply;
      try {
        reply = await assistantFor(app).reply({
          messages: [{ role: 'user', text: row.guest_text ?? '' }],
          locale: row.locale,
          channel: row.channel,
          traceId: turnId,
        });
        if (!reply.text.trim()) throw new Error('the agent answered nothing');
      } catch (err) {
        log.error({ err }, 'the agent failed on a chat turn');
        if (final) return finish('FAILED', { code: 'agent_error', detail: (err as Error)?.message ?? 'agent error' });
        await knex('chat_turns').where({ id: turnId, status: 'GENERATING' }).update({ status: 'QUEUED', error_code: 'agent_error', updated_at: knex.fn.now() });
        throw new RetryTurn('the agent failed; retrying', { cause: err });
      }
      const invalid = reply.audit.invalid;
      text = await polishAnswer(app, log, reply, row.locale, options.routes);
      await knex('chat_turns')
        .where({ id: turnId, status: 'GENERATING' })
        .update({ status: 'GENERATED', reply_text: text, invalid_links: invalid.length, generated_at: knex.fn.now(), updated_at: knex.fn.now() });
    } else {
      await knex('chat_turns').where({ id: turnId }).update({ attempts: knex.raw('attempts + 1'), updated_at: knex.fn.now() });
    }

    const sending = await knex('chat_turns')
      .where({ id: turnId, status: 'GENERATED' })
      .update({ status: 'SENDING', send_started_at: knex.fn.now(), updated_at: knex.fn.now() });
    if (!sending) return { status: 'busy' };
    try {
      await channel.send(row, text);
    } catch (err) {
      const failure = channel.describe(err);
      log.error({ ...failure.fields, code: failure.code, retryable: failure.retryable }, `chat platform send failed: ${failure.detail}`);
      if (failure.retryable && !final) {
        await knex('chat_turns').where({ id: turnId, status: 'SENDING' }).update({ status: 'GENERATED', error_code: failure.code, updated_at: knex.fn.now() });
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
