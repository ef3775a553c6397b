import type { ModuleRecord } from '../record.ts';
import { handlers } from './handlers.ts';
import { policy } from './publicPolicy.ts';
import { systemServices } from './visits.ts';
import { METRIC_SUBSCRIBERS, venueMetrics } from './metrics.ts';

/**
 * The `system` module's record (server/modules/record.ts): its handlers, policy entries, queues, subscribers and
 * services. Imported by server/modules/index.ts only; what other modules may use is this module's index.ts.
 */
export type { VenueMetrics } from './metrics.ts';

export function record() {
  return {
    tag: 'system',
    handlers,
    policy,
    // The business counters of /metrics (metrics.ts): built only when metrics are on; the subscribers then count.
    subscribers: METRIC_SUBSCRIBERS,
    services: (platform) => ({ ...systemServices(platform), ...venueMetrics(platform) }),
  } satisfies ModuleRecord;
}
