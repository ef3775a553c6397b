import type { AppContext, PlatformContext } from '../../platform/context.ts';
import { createVnpayClient, vnpayOptionsFromConfig, type VnpayClient } from '../../platform/integrations/vnpay.ts';
import { SANDBOX_API_URL, SANDBOX_PATH, SANDBOX_TMN_CODE, sandboxApiFetch, sandboxSecret } from './sandbox.ts';

declare module '../../platform/context.ts' {
  interface AppContext {
    /** The app's VNPay client (the payments module's service; made on first use, see `paymentsServices`). */
    vnpay: { readonly client: VnpayClient };
  }
}

/**
 * The module's per-app services (its record's `services`): the VNPay client, one per running app, from its config.
 * With the development sandbox on it is the same client, signing with the sandbox's TMN code and development secret;
 * its pay page is this server's own (`SANDBOX_PATH`, put on the request's base URL by checkout) and its merchant API
 * is answered in process. The client is made on first use, as before (the sandbox's secret may be read from, or
 * written to, DATA_DIR only when a payment needs it).
 */
export function paymentsServices(platform: Pick<PlatformContext, 'config'>): Pick<AppContext, 'vnpay'> {
  let client: VnpayClient | undefined;
  return {
    vnpay: {
      get client() {
        return (client ??= createClient(platform.config));
      },
    },
  };
}

function createClient(config: AppContext['config']): VnpayClient {
  if (config.vnpaySandbox) {
    const secret = sandboxSecret(config);
    return createVnpayClient({
      tmnCode: SANDBOX_TMN_CODE,
      hashSecret: secret,
      paymentUrl: `${config.publicApiUrl}${SANDBOX_PATH}`,
      apiUrl: SANDBOX_API_URL,
      timeoutMs: config.vnpayTimeoutMs,
      fetch: sandboxApiFetch(secret),
    });
  }
  return createVnpayClient(vnpayOptionsFromConfig(config));
}

/** The app's VNPay client. */
export const vnpayOf = (app: Pick<AppContext, 'vnpay'>): VnpayClient => app.vnpay.client;

/**
 * The base URL VNPay's return URL (and the sandbox's pay page) are built on: PUBLIC_API_URL when it was set (and
 * always in production), otherwise this server as the request reached it — the port it listens on (never a fixed
 * 3000: PORT may be anything, 0 included), `localhost` for a loopback or wildcard listener.
 */
export function callbackBaseUrl(config: Pick<AppContext['config'], 'nodeEnv' | 'publicApiUrl' | 'publicApiUrlExplicit' | 'host' | 'port'>, socket: { localAddress?: string; localPort?: number }): string {
  if (config.publicApiUrlExplicit || config.nodeEnv === 'production') return config.publicApiUrl;
  const port = socket.localPort ?? config.port;
  const wildcard = config.host === '0.0.0.0' || config.host === '::' || config.host === '';
  const local = (socket.localAddress ?? '').replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/, '');
  const loopback = local === '' || local === '::1' || local.startsWith('127.');
  const host = !wildcard && !/^(127\.|::1$|localhost$)/.test(config.host) ? config.host : loopback ? 'localhost' : local;
  return `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
}

/**
 * The public site's return page a guest's browser is sent on to from `vnpayReturn`:
 * `<PUBLIC_SITE_URL>/<locale>/payment/return?<the signed query VNPay sent>` (the site forwards that query to
 * `vnpayReturn` and renders the answer). The locale is the reservation's when the site has it, else the default.
 */
export function siteReturnUrl(config: Pick<AppContext['config'], 'publicSiteUrl' | 'siteLocales' | 'defaultLocale'>, locale: string | null, querystring: string): string {
  const language = (locale ?? '').toLowerCase().split('-')[0];
  const siteLocale = config.siteLocales.find((candidate) => candidate.toLowerCase() === language) ?? config.defaultLocale;
  return `${config.publicSiteUrl.replace(/\/+$/, '')}/${encodeURIComponent(siteLocale)}/payment/return${querystring ? `?${querystring}` : ''}`;
}
