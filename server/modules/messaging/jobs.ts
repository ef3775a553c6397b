import type { QueueDefinition } from '../../platform/jobs/types.ts';
import { runTurn } from '../chatPlatform/index.ts';
import { whatsAppChannel, whatsAppFor } from './service.ts';

/** One inbound WhatsApp text answered by the assistant (the turn runner of server/modules/chatPlatform/turns.ts). */
export const MESSAGING_REPLY_QUEUE = 'messaging.reply';

export const jobs: QueueDefinition<{ turnId: string }>[] = [
  {
    name: MESSAGING_REPLY_QUEUE,
    retryLimit: 3,
    retryDelay: 5,
    retryBackoff: true,
    // No agent time-out (spec §8.2): this only bounds a dead process's run; a run found mid-send is never resent.
    expireInSeconds: 15 * 60,
    concurrency: 4,
    async handler(data, job) {
      if (!job.app) throw new Error(`${MESSAGING_REPLY_QUEUE}: the job engine was started without the app's services`);
      return runTurn(job.app, data.turnId, whatsAppChannel(whatsAppFor(job.app)), { attempt: job.attempt, retryLimit: job.retryLimit, log: job.log });
    },
  },
];
