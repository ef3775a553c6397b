import { createHash } from 'node:crypto';
import type { Knex } from 'knex';
import type { AppContext } from '../../../platform/context.ts';
import type { AuthContext } from '../../../platform/auth/context.ts';
import { Unprocessable } from '../../../platform/http/problem.ts';
import { BUSINESS_EVENTS, captureBusinessEvent } from '../../booking/index.ts';
import { assertTransition, inTransition } from '../../booking/index.ts';
import { digest } from '../../booking/index.ts';
import { staffActor } from '../../../domain/actors.ts';
import { doorRow, isInside, normalizeToken, operatorLabel, refusal, resolveTarget, type CheckInReason, type CheckInRow, type CheckInType, type DoorRow, type Target } from '../service.ts';

export interface RedeemInput {
  target: Target;
  type: CheckInType;
  nonce: string;
  showEventId?: string;
}

export interface RedeemOutcome {
  checkIn: CheckInRow;
  /** The reservation as it is after the attempt (undefined for `not_found`). */
  reservation: DoorRow | undefined;
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
 * (service.ts `refusal`), a first ENTRY moves the reservation CONFIRMED → CHECKED_IN through the lifecycle's
 * rule, and the attempt is recorded whatever its answer. Two requests racing with one nonce: the second either
 * waits on the lock and finds the first's row, or loses the unique insert, rolls back and answers the first's.
 * `operator check-in completed` is sent after commit, for a check-in only (not a refusal, a re-entry or an exit).
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
        const recorded = await trx('check_ins').where({ nonce: input.nonce }).first();
        if (recorded) return replay(recorded as CheckInRow, hash, recorded.reservation_id ? await doorRow(trx, recorded.reservation_id) : undefined);

        const row = reservationId ? await doorRow(trx, reservationId) : undefined;
        let reason: CheckInReason | null = 'not_found';
        if (row) {
          const inside = await isInside(trx, row);
          reason = refusal(row, input.type, { inside, showEventId: input.showEventId, now, zone: app.config.venueTimezone });
        }
        const checksIn = !reason && input.type === 'ENTRY' && row!.status === 'CONFIRMED';
        if (checksIn) {
          assertTransition(row!.status, 'CHECKED_IN');
          await trx('reservations').where({ id: row!.id }).update({ status: 'CHECKED_IN', checked_in_at: now, updated_at: now });
        }
        const [inserted] = (await trx('check_ins')
          .insert({
            reservation_id: row?.id ?? null,
            show_event_id: input.showEventId ? await knownEvent(trx, input.showEventId) : null,
            type: input.type,
            identified_by: 'id' in input.target ? 'ID' : 'TOKEN',
            nonce: input.nonce,
            request_hash: hash,
            result: reason ? 'refused' : 'ok',
            reason,
            operator,
            // The clock at the insert, not the transaction's start: a scan that waited on the lock is later.
            created_at: trx.raw('clock_timestamp()'),
          })
          .onConflict('nonce')
          .ignore()
          .returning('*')) as CheckInRow[];
        if (!inserted) throw new NonceTaken();
        if (checksIn) ctx.afterCommit(() => captureBusinessEvent(app, BUSINESS_EVENTS.operatorCheckInCompleted, row!.id, { checked_in_by: operator }));
        return { checkIn: inserted, reservation: row ? await doorRow(trx, row.id) : undefined, replayed: false };
      },
      now,
    );
  } catch (err) {
    if (!(err instanceof NonceTaken)) throw err;
    const recorded = (await app.db.knex('check_ins').where({ nonce: input.nonce }).first()) as CheckInRow;
    return replay(recorded, hash, recorded.reservation_id ? await doorRow(app.db.knex, recorded.reservation_id) : undefined);
  }
}

function replay(recorded: CheckInRow, hash: Buffer, reservation: DoorRow | undefined): RedeemOutcome {
  if (!Buffer.from(recorded.request_hash).equals(hash)) throw NonceReused();
  return { checkIn: recorded, reservation, replayed: true };
}

/** The door's event id when such an event exists (an unknown one is still `wrong_event`, but is not stored). */
async function knownEvent(trx: Knex.Transaction, id: string): Promise<string | null> {
  const row = await trx('show_events').where({ id }).first('id');
  return row?.id ?? null;
}
