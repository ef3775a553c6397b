import { assistantApiBaseUrl } from '../../assistant/address.ts';
import { readRoutes, type RouteFacts } from '../../assistant/facts.ts';
import { repairLinks, type AssistantChannel, type AssistantReply } from '../../assistant/index.ts';
import { closestRoute } from '../../assistant/linkAudit.ts';
import { createVenueData } from '../../assistant/venueData.ts';
import type { AppContext } from '../../platform/context.ts';
import type { Logger } from '../../platform/logger.ts';
import type { ChatTurn, TurnSource, TurnStatus } from './models.ts';
import type { Clock, TypingAdapter } from './typing.ts';

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

export type { TurnSource, TurnStatus } from './models.ts';

/** What a platform's side of a turn reads of its row. */
export type TurnRow = Pick<ChatTurn, 'id' | 'source' | 'channel' | 'recipient' | 'externalMessageId' | 'locale' | 'status' | 'guestText' | 'replyText' | 'attempts'>;

export interface NewTurn {
  source: TurnSource;
  channel: AssistantChannel;
  recipient: string;
  externalMessageId?: string;
  locale: string;
  text: string;
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

export const TERMINAL: TurnStatus[] = ['SENT', 'FAILED'];

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
