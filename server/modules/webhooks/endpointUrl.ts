import { Unprocessable } from '../../platform/http/problem.ts';
import { literalAddress, type AddressGuard } from '../../platform/integrations/outboundHttp.ts';

/**
 * An endpoint's URL, checked as it is registered (issue 36 §3; the contract's `WebhookUrl` already checked the scheme
 * and length): 422 `webhook_url_refused` for credentials in it (the signature authenticates the venue, and a password
 * does not belong in lists and logs) and for a host that is a loopback, private, link-local or unique-local address
 * the venue does not allow. A name is checked again at every delivery, on the address it then resolves to.
 */
export function checkEndpointUrl(raw: string, guard: AddressGuard): string {
  const refuse = (detail: string) => Unprocessable('webhook_url_refused', detail, [{ path: 'body/url', message: detail, code: 'webhook_url_refused' }]);
  const url = URL.canParse(raw) ? new URL(raw) : undefined;
  if (!url || !/^https?:$/.test(url.protocol) || !url.hostname) throw refuse('The URL must be an http:// or https:// URL with a host.');
  if (url.username || url.password) throw refuse('The URL carries credentials: leave them out (deliveries are signed).');
  const host = url.hostname.toLowerCase();
  const address = literalAddress(host) ?? (host === 'localhost' || host.endsWith('.localhost') ? '127.0.0.1' : undefined);
  if (address && !guard.permits(address)) {
    throw refuse(`${url.hostname} is a loopback, private, link-local or unique-local address, which the venue does not allow (WEBHOOK_ALLOWED_NETWORKS).`);
  }
  return raw;
}
