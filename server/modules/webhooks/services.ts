import type { Counter } from 'prom-client';
import type { AppContext, PlatformContext } from '../../platform/context.ts';
import { AddressGuard } from '../../platform/integrations/outboundHttp.ts';

/**
 * The webhooks' counters (issue 36 §3), on the app's registry beside the venue's (server/modules/system/metrics.ts),
 * only when metrics are on: deliveries by result — `succeeded` (2xx), `http_error` (another status), `redirect` (a
 * 3xx: none is followed), `timeout`, `network`, `refused` (a private or loopback address) — and endpoints disabled
 * after sustained failure. Counted after the attempt's outcome committed; this process's since it started.
 */
export const DELIVERY_RESULTS = ['succeeded', 'http_error', 'redirect', 'timeout', 'network', 'refused'] as const;
export type DeliveryResult = (typeof DELIVERY_RESULTS)[number];

export interface WebhookMetrics {
  deliveries: Counter<'result'>;
  endpointsDisabled: Counter;
}

declare module '../../platform/context.ts' {
  interface AppContext {
    /** The webhooks' counters; undefined when metrics are off. */
    webhookMetrics: WebhookMetrics | undefined;
    /** Which addresses deliveries may reach (WEBHOOK_ALLOWED_NETWORKS on top of the public internet). */
    webhookGuard: AddressGuard;
  }
}

/** The webhooks module's services (its record's `services`): its address guard and its counters. */
export function webhookServices(platform: PlatformContext): Pick<AppContext, 'webhookMetrics' | 'webhookGuard'> {
  return { webhookGuard: new AddressGuard(platform.config.webhooks.allowedNetworks), webhookMetrics: webhookMetrics(platform) };
}

function webhookMetrics(platform: PlatformContext): WebhookMetrics | undefined {
  const metrics = platform.metrics;
  if (!metrics) return undefined;
  const registers = [metrics.registry];
  const deliveries = new metrics.client.Counter({
    name: 'venue_webhook_deliveries_total',
    help: 'Webhook delivery attempts by result: succeeded, http_error, redirect, timeout, network, refused.',
    labelNames: ['result'] as const,
    registers,
  });
  for (const result of DELIVERY_RESULTS) deliveries.inc({ result }, 0);
  const endpointsDisabled = new metrics.client.Counter({ name: 'venue_webhook_endpoints_disabled_total', help: 'Webhook endpoints disabled after every attempt failed for WEBHOOK_DISABLE_AFTER_HOURS.', registers });
  return { deliveries, endpointsDisabled };
}
