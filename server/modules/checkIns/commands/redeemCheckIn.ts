import { createHash } from 'node:crypto';
import type { AppContext } from '../../../platform/context.ts';
import type { AuthContext } from '../../../platform/auth/context.ts';
import { Unprocessable } from '../../../platform/http/problem.ts';
import { markCheckedIn } from '../../booking/index.ts';
import { inTransition } from '../../../domain/unitOfWork.ts';
import { digest } from '../../../platform/auth/tokens.ts';
import { staffActor } from '../../../domain/actors.ts';
import { normalizeToken, operatorLabel, refusal, type Target } from '../door.ts';
import type { CheckIn, CheckInReason, CheckInType } from '../models.ts';
import { attemptByNonce, doorReservation, insertAttemptOnce, isInside, knownEvent, resolveTarget, type DoorReservation } from '../queries.ts';

export interface RedeemInput {
  target: Target;
  type: CheckInType;
  nonce: string;
  showEventId?: string;
}

export interface RedeemOutcome {
  checkIn: CheckIn;
  /** The reservation as it is after the attempt (undefined for `not_found`). */
  reservation: DoorReservation | undefined;
  /** True when the nonce was already recorded: this is that first attempt, nothing new was written. */
  replayed: boolean;
}

/** Thrown inside the transaction when another request recorded the nonce first: roll back, answer that one. */
class NonceTaken extends Error {}

const NonceReused = () =>
  Unprocessable('nonce_reused', 'This nonce was used for another scan; generate a new nonce per scan.', [
    { path: 'body/nonce', message: 'was already used for another scan', code: 'nonce_reused' },
  ]);

/**
 * What the request asks, as a digest: a retry carries the same type, target and event; anything else with the
 * same nonce is another scan. A token is reduced to its own digest first (the normalized token, so a retry
 * with a trailing newline is the same request).
 */
function requestHash(input: RedeemInput): Buffer {
  const target = 'id' in input.target ? `id:${input.target.id.toLowerCase()}` : `token:${digest(normalizeToken(input.target.token) ?? input.target.token).toString('hex')}`;
  return createHash('sha256').update([input.type, target, input.showEventId?.toLowerCase() ?? ''].join('\n')).digest();
}

/**
 * One scan at the door, in one transaction: the reservation is found and locked (`for update`, so scans of one
 * reservation queue here), the nonce looked up (a recorded one answers its first attempt), the scan judged
 * (door.ts `refusal`), a first ENTRY moves the reservation CONFIRMED → CHECKED_IN through the lifecycle's
 * rule, and the attempt is recorded whatever its answer. Two requests racing with one nonce: the second either
 * waits on the lock and finds the first's row, or loses the unique insert, rolls back and answers the first's.
 * A check-in publishes `reservation.checkedIn` (booking's subscriber sends `operator check-in completed` after the
 * commit), so a refusal, a re-entry or an exit sends nothing.
 */
export async function redeemCheckIn(app: AppContext, input: RedeemInput, auth: AuthContext, now = new Date()): Promise<RedeemOutcome> {
  const hash = requestHash(input);
  const operator = operatorLabel(auth);
  try {
    return await inTransition(
      app,
      staffActor(auth),
      async (ctx) => {
        const { trx } = ctx;
        const reservationId = await resolveTarget(trx, input.target, true);
        const recorded = await attemptByNonce(trx, input.nonce);
        if (recorded) return replay(recorded, hash, recorded.reservationId ? await doorReservation(trx, recorded.reservationId) : undefined);

        const row = reservationId ? await doorReservation(trx, reservationId) : undefined;
        let reason: CheckInReason | null = 'not_found';
        if (row) {
          const inside = await isInside(trx, row);
          reason = refusal(row, input.type, { inside, showEventId: input.showEventId, now, zone: app.config.venueTimezone });
        }
        const checksIn = !reason && input.type === 'ENTRY' && row!.status === 'CONFIRMED';
        if (checksIn) await markCheckedIn(ctx, row!.id, row!.status, operator);
        const inserted = await insertAttemptOnce(trx, {
          reservationId: row?.id ?? null,
          showEventId: input.showEventId ? await knownEvent(trx, input.showEventId) : null,
          type: input.type,
          identifiedBy: 'id' in input.target ? 'ID' : 'TOKEN',
          nonce: input.nonce,
          requestHash: hash,
          result: reason ? 'refused' : 'ok',
          reason,
          operator,
        });
        if (!inserted) throw new NonceTaken();
        return { checkIn: inserted, reservation: row ? await doorReservation(trx, row.id) : undefined, replayed: false };
      },
      now,
    );
  } catch (err) {
    if (!(err instanceof NonceTaken)) throw err;
    const recorded = (await attemptByNonce(app.db.knex, input.nonce))!;
    return replay(recorded, hash, recorded.reservationId ? await doorReservation(app.db.knex, recorded.reservationId) : undefined);
  }
}

function replay(recorded: CheckIn, hash: Buffer, reservation: DoorReservation | undefined): RedeemOutcome {
  if (!Buffer.from(recorded.requestHash).equals(hash)) throw NonceReused();
  return { checkIn: recorded, reservation, replayed: true };
}
