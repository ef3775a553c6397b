import type { ModuleRecord } from '../record.ts';
import { handlers } from './handlers.ts';
import { jobs } from './jobs.ts';
import { webhookServices } from './services.ts';
import { subscribers } from './subscribers.ts';

/**
 * The `webhooks` module's record (server/modules/record.ts): its handlers, queue, subscribers and services (issue 36
 * §3). Imported by server/modules/index.ts only; nothing else uses this module, so it has no index.ts.
 */
export function record() {
  return { tag: 'webhooks', handlers, jobs, subscribers, services: webhookServices } satisfies ModuleRecord;
}
