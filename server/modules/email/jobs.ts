import type { Knex } from 'knex';
import type { AppContext } from '../../platform/context.ts';
import type { Mailer } from '../../platform/integrations/mail.ts';
import type { QueueDefinition } from '../../platform/jobs/types.ts';
import type { Logger } from '../../platform/logger.ts';
import { deliverEmail, type DeliveryOutcome } from './commands/deliverEmail.ts';
import { HOLD_EXPIRED_QUEUE, REMINDER_QUEUE, sendHoldExpired, sendReminder, sendTransferReminder, TRANSFER_REMINDER_QUEUE } from './commands/guestMessages.ts';
import { EMAIL_SEND_QUEUE, type EmailSendJobData } from './commands/recordEmail.ts';

/**
 * What a handler gets from the job engine: the job's data and its retry bookkeeping (pg-boss names:
 * `retryCount` is how many retries already ran, 0 on the first attempt).
 */
export interface JobRun<T> {
  id?: string;
  data: T;
  retryCount?: number;
  retryLimit?: number;
}

/** The services a handler may use (a subset of AppContext). */
export interface JobDeps {
  db: { knex: Knex };
  mailer: Mailer;
  logger: Logger;
}

export interface JobDefinition<T> {
  name: string;
  handler(job: JobRun<T>, deps: JobDeps): Promise<unknown>;
  retryLimit: number;
  /** Seconds before the first retry; doubled each time with `retryBackoff`. */
  retryDelay: number;
  retryBackoff: boolean;
  /** A run taking longer is considered lost and retried. Above the SMTP time-outs of one send. */
  expireInSeconds: number;
}

export const EMAIL_SEND_RETRY_LIMIT = 5;

/** True when no retry follows this run: `retryCount` has reached the limit. */
export function isFinalAttempt(job: Pick<JobRun<unknown>, 'retryCount' | 'retryLimit'>, retryLimit = EMAIL_SEND_RETRY_LIMIT): boolean {
  return (job.retryCount ?? 0) >= (job.retryLimit ?? retryLimit);
}

const emailSend: JobDefinition<EmailSendJobData> = {
  name: EMAIL_SEND_QUEUE,
  // 6 attempts: at once, then about 30 s, 1 min, 2 min, 4 min, 8 min later (≈ 15 min of retries).
  retryLimit: EMAIL_SEND_RETRY_LIMIT,
  retryDelay: 30,
  retryBackoff: true,
  expireInSeconds: 120,
  handler: (job, deps): Promise<DeliveryOutcome> =>
    deliverEmail({ knex: deps.db.knex, mailer: deps.mailer, logger: deps.logger }, job.data.messageId, {
      finalAttempt: isFinalAttempt(job),
    }),
};

/** The module's definitions as the job engine runs them: the engine's attempt count is 1 on the first run. */
function forEngine<T extends object>(definition: JobDefinition<T>): QueueDefinition<T> {
  const { handler, ...settings } = definition;
  return {
    ...settings,
    handler(data, job) {
      if (!job.app) throw new Error(`${definition.name}: the job engine was started without the app's services`);
      return handler({ id: job.id, data, retryCount: job.attempt - 1, retryLimit: job.retryLimit }, { db: job.app.db, mailer: job.app.mailer, logger: job.log });
    },
  };
}

/** This module's queues and their (idempotent) handlers, for the job engine to register. */
export const definitions: JobDefinition<any>[] = [emailSend];

/**
 * The guest messages written by a job rather than by the command that causes them (commands/guestMessages.ts): the
 * reminder (queued at confirmation with `startAfter`; it checks again that it is still due and true, and sends
 * once per reservation), the hold-expired message (queued by the hold expiry) and the bank transfer's reminder
 * (queued with its details, issue 34 §1). Each only writes ledger rows;
 * `email.send` sends them.
 */
export const guestMessageJobs: QueueDefinition[] = [
  reservationMessageJob(REMINDER_QUEUE, sendReminder, 'reservation reminder'),
  {
    name: HOLD_EXPIRED_QUEUE,
    retryLimit: 5,
    retryDelay: 30,
    retryBackoff: true,
    expireInSeconds: 120,
    async handler(data: { reservationIds: string[] }, job) {
      if (!job.app) throw new Error(`${HOLD_EXPIRED_QUEUE}: the job engine was started without the app's services`);
      const written = await sendHoldExpired(job.app, data.reservationIds ?? []);
      return { written };
    },
  },
  // The bank transfer's reminder (issue 34 §1), queued with its details at `remindAt`; it checks again that the
  // transfer is still owed, and sends once per reservation.
  reservationMessageJob(TRANSFER_REMINDER_QUEUE, sendTransferReminder, 'bank transfer reminder'),
];

/** A job that writes one reservation's message when its moment comes, if still due (`send` checks and says). */
function reservationMessageJob(name: string, send: (app: AppContext, reservationId: string) => Promise<string>, what: string): QueueDefinition {
  return {
    name,
    retryLimit: 5,
    retryDelay: 60,
    retryBackoff: true,
    expireInSeconds: 60,
    async handler(data: { reservationId: string }, job) {
      if (!job.app) throw new Error(`${name}: the job engine was started without the app's services`);
      const outcome = await send(job.app, data.reservationId);
      job.log.info({ reservationId: data.reservationId, outcome }, what);
      return { outcome };
    },
  };
}

export const jobs: QueueDefinition[] = [...definitions.map(forEngine), ...guestMessageJobs];
