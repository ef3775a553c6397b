import type { Knex } from 'knex';
import type { AppContext } from '../../../platform/context.ts';
import { forgetAnswer, lockIdempotencyKey, rememberAnswer, rememberedAnswer, requestHash } from '../../../platform/db/idempotency.ts';
import { inUnitOfWork } from '../../../platform/unitOfWork.ts';
import { publish } from '../../../domain/events.ts';
import type { HoldInput } from '../inputs.ts';
import { EXPIRE_HOLDS_QUEUE } from '../jobs.ts';
import { confirmReservation } from '../lifecycle.ts';
import { presentGuestReservation, type GuestPresentation } from '../presenters.ts';
import { holdOutlookRow, NO_MONEY, reservationDetails } from '../queries.ts';
import type { Judgement } from '../seatGate.ts';
import { createHold, mayClaimSeats, outlookBeforeLock, type PlannedHold } from './createHold.ts';

/** The route an Idempotency-Key is scoped to. */
export const HOLD_ROUTE = 'POST /api/public/reservations';

export type HoldAnswer = { status: 201; body: ReturnType<typeof presentGuestReservation> & { accessToken: string }; replayed: boolean; /** Only for a new hold (a replay writes nothing). */ reservationId?: string };

async function remembered(knex: Knex, key: string, hash: Buffer, now: Date): Promise<HoldAnswer | undefined> {
  const answer = await rememberedAnswer(knex, HOLD_ROUTE, key, hash, now);
  return answer ? { status: answer.status as 201, body: JSON.parse(answer.body), replayed: true } : undefined;
}

/**
 * The guest's hold: creates it (./createHold.ts), schedules its expiry job (`booking.expire-holds` at
 * `holdExpiresAt`) and answers it with the access token. With an Idempotency-Key, the key is taken under a
 * transaction-scoped advisory lock, so concurrent requests with one key run one after the other: the first writes
 * the reservation and remembers its answer (sealed, see tokens.ts) in the same transaction; the others, and any
 * later one within 24 h, get that answer and write nothing. Only a successful answer is remembered: a refused
 * request (sold out, validation) writes nothing, so a retry with the same key tries again. A new hold publishes
 * `hold.placed`; booking's after-commit subscriber sends the `reservation created` business event, which cannot fail
 * the answer (captureBusinessEvent logs its failures and never rejects: the hold exists, so the guest gets its 201;
 * it reads the database only when analytics is on).
 *
 * `throttle` (the address's hold budget, 429) is spent by the requests that reach the hold's transaction: a
 * replay, and a refusal the check before the lock is certain of (sold out, not enough seats), write nothing and
 * cost no more than reading the catalog, so they are answered without it — under a rush on the last seats the
 * refused no longer queue one rate-limit statement each in front of the holds that fit.
 */
export async function createPublicReservation(
  app: AppContext,
  input: HoldInput,
  idempotencyKey: string | undefined,
  p: Omit<GuestPresentation, 'now' | 'cancellationWindowHours'>,
  options: { throttle?: () => Promise<void>; now?: Date } = {},
): Promise<HoldAnswer> {
  const { throttle = async () => undefined, now = new Date() } = options;
  const { knex } = app.db;
  const { jobs } = app;
  // The body's hash only matters with a key (hashing every request cost the refused ones under a rush).
  const keyed = idempotencyKey ? { key: idempotencyKey, hash: requestHash(input) } : undefined;
  if (keyed) {
    const before = await remembered(knex, keyed.key, keyed.hash, now);
    if (before) return before;
  }
  const holdInTransaction = async () => {
    await throttle();
    return inUnitOfWork(
      { knex, logger: app.logger },
      async ({ trx, afterCommit }) => {
        if (keyed) {
          await lockIdempotencyKey(trx, HOLD_ROUTE, keyed.key);
          const raced = await remembered(trx, keyed.key, keyed.hash, now);
          if (raced) return raced;
          // An expired answer of this key is cleared now, before createHold takes the event's lock.
          await forgetAnswer(trx, HOLD_ROUTE, keyed.key);
        }
        // The hold's own expiry run, enqueued before the event's lock (outbox: it exists only if this transaction
        // commits). A booking confirmed at once below keeps it: the run then finds nothing of its own to expire.
        const enqueueExpiry = async ({ reservationId, holdExpiresAt }: PlannedHold) => {
          await jobs.enqueue(EXPIRE_HOLDS_QUEUE, { reservationId }, { trx, startAfter: holdExpiresAt });
        };
        const hold = await createHold(app.bookingExtensions, trx, input, now, 'guest', enqueueExpiry);
        const { reservationId, accessToken, cancellationWindowHours } = hold;
        await publish({ trx, app, actor: 'GUEST', now, afterCommit }, 'hold.placed', { reservationId, showEventId: hold.view.showEventId, by: 'GUEST' });
        let view = hold.view;
        if (view.totalVnd === 0) {
          // Nothing to pay (a voucher covers it all): there is no checkout to wait for, so the booking is confirmed
          // now — check-in token, confirmation e-mail — instead of a hold that would run out.
          await confirmReservation({ trx, app, actor: 'SYSTEM', now, afterCommit }, reservationId, { by: 'SYSTEM' });
          view = await reservationDetails(trx, reservationId);
        }
        const body = { ...presentGuestReservation(view, NO_MONEY, { ...p, now, cancellationWindowHours }), accessToken };
        if (keyed) {
          await rememberAnswer(trx, HOLD_ROUTE, keyed.key, keyed.hash, 201, JSON.stringify(body), now, { forgotten: true });
        }
        return { status: 201 as const, body, replayed: false, reservationId };
      },
      now,
    );
  };
  // Judged before the event's lock first (../seatGate.ts): what certainly does not fit is refused from an unlocked
  // read, and only as many holds as there are seats left queue for the lock. A refusal there with an
  // Idempotency-Key whose first request has since been answered replays that answer instead.
  const answer = mayClaimSeats(app.bookingExtensions, input)
    ? await holdInTransaction()
    : await app.bookingGate.run({
        event: input.eventSlug,
        readKey: `${input.eventSlug}\u0000${input.offerCode}`,
        seats: input.guestCount,
        read: async () => {
          const readAt = new Date();
          return { readAt, row: await holdOutlookRow(knex, input.eventSlug, input.offerCode, readAt) };
        },
        judge: async ({ readAt, row }): Promise<Judgement<HoldAnswer>> => {
          // A read on an earlier clock than this request's (a caller-given `now`) is not judged on.
          if (readAt < now) return { bypass: true };
          try {
            return await outlookBeforeLock(knex, app.bookingExtensions, input, row, now);
          } catch (refusal) {
            const replay = keyed ? await remembered(knex, keyed.key, keyed.hash, now) : undefined;
            if (replay) return { answer: replay };
            throw refusal;
          }
        },
        hold: holdInTransaction,
      });
  return answer;
}
