import type { QueueDefinition } from '../../platform/jobs/types.ts';
import { manyChatChannel, manyChatFor } from './service.ts';
import { runTurn } from './commands/runTurn.ts';

/** One background turn of the chat-platform webhook (server/modules/chatPlatform/turns.ts). */
export const CHAT_PLATFORM_TURN_QUEUE = 'chatPlatform.turn';

export interface ChatTurnJobData {
  turnId: string;
}

export const jobs: QueueDefinition<ChatTurnJobData>[] = [
  {
    name: CHAT_PLATFORM_TURN_QUEUE,
    // 4 attempts: at once, then about 5 s, 10 s, 20 s later (a platform hiccup, a 429).
    retryLimit: 3,
    retryDelay: 5,
    retryBackoff: true,
    // The agent has no response time-out (spec §8.2); this only bounds how long a dead process's run stays
    // active before it is retried (and a run found mid-send is never sent again).
    expireInSeconds: 15 * 60,
    // Turns wait on the agent and the platform, not on this process: many run at once.
    concurrency: 8,
    async handler(data, job) {
      if (!job.app) throw new Error(`${CHAT_PLATFORM_TURN_QUEUE}: the job engine was started without the app's services`);
      return runTurn(job.app, data.turnId, manyChatChannel(manyChatFor(job.app)), { attempt: job.attempt, retryLimit: job.retryLimit, log: job.log });
    },
  },
];
