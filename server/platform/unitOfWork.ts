import type { Knex } from 'knex';

/**
 * One unit of work for a command (DESIGN.md "Domain events"): its transaction, its clock and its after-commit
 * list. Everything a command must not do unless it commits — analytics, conversions, anything outside the
 * database — goes on the list; the list runs once the transaction has committed, in order, each task's failure
 * logged and never undoing the command. Commands publish domain events through the same context
 * (server/domain/events.ts `publish`).
 */

/** The after-commit list of one unit of work. */
export class AfterCommit {
  private readonly tasks: Array<() => void | Promise<void>> = [];
  readonly add = (task: () => void | Promise<void>) => {
    this.tasks.push(task);
  };
  /** Runs the queued tasks in order (and any they queue); a failing task is logged with `what`. */
  async run(logger: { error(obj: object, msg: string): void }, what = 'an after-commit task failed'): Promise<void> {
    for (let task = this.tasks.shift(); task; task = this.tasks.shift()) {
      try {
        await task();
      } catch (err) {
        logger.error({ err }, what);
      }
    }
  }
}

export interface UnitOfWork {
  trx: Knex.Transaction;
  now: Date;
  afterCommit(task: () => void | Promise<void>): void;
}

/** Runs `work` in one transaction of `knex`; its after-commit tasks run once it has committed. */
export async function inUnitOfWork<T>(
  deps: { knex: Knex; logger: { error(obj: object, msg: string): void } },
  work: (uow: UnitOfWork) => Promise<T>,
  now = new Date(),
): Promise<T> {
  const after = new AfterCommit();
  const result = await deps.knex.transaction((trx) => work({ trx, now, afterCommit: after.add }));
  await after.run(deps.logger);
  return result;
}
