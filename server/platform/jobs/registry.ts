import type { QueueDefinition } from './types.ts';

/**
 * A module with background work declares its queues in its record (`jobs`, from `server/modules/<area>/jobs.ts`);
 * `server/modules/index.ts` gathers them (`QUEUES`) with this function. The engine registers the queues it is
 * given at start and refuses to enqueue on any other.
 */

/** The modules' lists as one, refusing a queue name used twice. */
export function collectQueues(lists: ReadonlyArray<readonly QueueDefinition[]>): QueueDefinition[] {
  const seen = new Set<string>();
  const all: QueueDefinition[] = [];
  for (const list of lists) {
    for (const queue of list) {
      if (seen.has(queue.name)) throw new Error(`Job queue "${queue.name}" is declared by two modules`);
      seen.add(queue.name);
      all.push(queue);
    }
  }
  return all;
}

