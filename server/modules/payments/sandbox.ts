import { randomBytes, randomInt } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { AppContext } from '../../platform/context.ts';
import type { Config } from '../../platform/config.ts';
import {
  apiMessageHash,
  parseVnpayDate,
  sameApiHash,
  signedQuery,
  VNPAY_VERSION,
  vnpayDate,
  type CallbackQuery,
  type IpnAnswer,
} from '../../platform/integrations/vnpay.ts';

/**
 * The development payment sandbox (VNPAY_SANDBOX; default on outside production while VNPAY_* are unset): a
 * simulator of VNPay's pay page on this server, so `npm start` → book → pay → confirmation works without a
 * VNPay merchant account. It plays VNPay's part with VNPay's protocol (2.1.0) and the one signing code of
 * server/platform/integrations/vnpay.ts:
 *
 * - checkout signs the payment URL as for VNPay (TMN code `DEVSBX01`, the development secret below) and sends
 *   the guest to `GET /api/payments/vnpay/sandbox?vnp_…&vnp_SecureHash=…` on this server instead of VNPay;
 * - the page checks that signature as VNPay does (a tampered URL gets an error page and no buttons), shows the
 *   amount and the order, and offers Pay / Cancel / Fail;
 * - a button posts back to the same URL: the sandbox builds VNPay's callback parameters (`00`; `24` cancelled by
 *   the guest; `51` declined for insufficient funds; `11` when the URL has expired), signs them, delivers the
 *   IPN server to server by running the IPN's own command (`vnpayIpn`, the real verification and effects)
 *   before anything else, then sends the browser to the signed `vnp_ReturnUrl` (303), as VNPay does;
 * - VNPay's merchant API (refunds) is answered in process: requests checked and answers signed as VNPay's are.
 *
 * The server refuses to start with the sandbox in production (server/platform/config.ts), and its routes answer 404
 * whenever it is off.
 */

export const SANDBOX_TMN_CODE = 'DEVSBX01';
export const SANDBOX_PATH = '/api/payments/vnpay/sandbox';
/** Never reached: the sandbox's merchant API is answered in process (`sandboxApiFetch`). */
export const SANDBOX_API_URL = 'http://vnpay-sandbox.invalid/merchant_webapi/api/transaction';

// ---- the development secret ------------------------------------------------------------------------------------

const secrets = new Map<string, string>();
const CREDENTIALS_FILE = 'dev-credentials.json';
const SECRET_KEY = 'vnpaySandboxHashSecret';

/**
 * The sandbox's hash secret. Like the development superuser token, it is generated once and kept in
 * `<DATA_DIR>/dev-credentials.json` (mode 0600), so every process on that DATA_DIR (a restart, a second web
 * process on the same PostgreSQL) signs and verifies alike: a payment URL made by one process is accepted, and its
 * IPN and return verified, by any other. Under NODE_ENV=test (nothing written to DATA_DIR) and when the file
 * cannot be written, it is this process's own random secret.
 */
export function sandboxSecret(config: Pick<Config, 'nodeEnv' | 'dataDir'>): string {
  const key = `${config.nodeEnv}:${config.dataDir}`;
  let secret = secrets.get(key);
  if (secret) return secret;
  secret = config.nodeEnv === 'test' ? newSecret() : storedSecret(config.dataDir);
  secrets.set(key, secret);
  return secret;
}

const newSecret = () => randomBytes(32).toString('hex').toUpperCase();

function storedSecret(dataDir: string): string {
  const file = path.join(dataDir, CREDENTIALS_FILE);
  try {
    const stored: Record<string, unknown> = fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, 'utf8')) : {};
    if (typeof stored[SECRET_KEY] === 'string' && /^[0-9A-F]{64}$/.test(stored[SECRET_KEY])) return stored[SECRET_KEY];
    const secret = newSecret();
    fs.mkdirSync(dataDir, { recursive: true });
    fs.writeFileSync(file, JSON.stringify({ ...stored, [SECRET_KEY]: secret }, null, 2) + '\n', { mode: 0o600 });
    fs.chmodSync(file, 0o600);
    return secret;
  } catch {
    return newSecret();
  }
}

// ---- the merchant API (refunds), in process ----------------------------------------------------------------------

/**
 * VNPay's merchant API as the sandbox answers it: a `refund` whose signature checks out is accepted (`00`,
 * transaction status `05`, "refund being processed", as VNPay's sandbox answers), signed the documented way; a bad
 * signature is `97`. Any other command is refused (400: the server sends only refunds to VNPay's API).
 */
export function sandboxApiFetch(secret: string): typeof fetch {
  return async (_input, init) => {
    let body: Record<string, string>;
    try {
      body = JSON.parse(String(init?.body ?? ''));
    } catch {
      return new Response('not JSON', { status: 400 });
    }
    if (body.vnp_Command !== 'refund') return new Response(`the sandbox answers refunds only, not ${String(body.vnp_Command)}`, { status: 400 });
    const valid = sameApiHash(apiMessageHash(secret, 'refundRequest', body), body.vnp_SecureHash) && body.vnp_TmnCode === SANDBOX_TMN_CODE;
    const answer: Record<string, string> = {
      vnp_ResponseId: randomBytes(16).toString('hex'),
      vnp_Command: 'refund',
      vnp_ResponseCode: valid ? '00' : '97',
      vnp_Message: valid ? 'Refund success (sandbox)' : 'Invalid Checksum',
      vnp_TmnCode: SANDBOX_TMN_CODE,
      vnp_TxnRef: body.vnp_TxnRef ?? '',
      vnp_Amount: body.vnp_Amount ?? '',
      vnp_BankCode: 'NCB',
      vnp_PayDate: vnpayDate(new Date()),
      vnp_TransactionNo: valid ? transactionNo() : '0',
      vnp_TransactionType: body.vnp_TransactionType ?? '',
      vnp_TransactionStatus: valid ? '05' : '',
      vnp_OrderInfo: body.vnp_OrderInfo ?? '',
    };
    answer.vnp_SecureHash = apiMessageHash(secret, 'refundResponse', answer);
    return new Response(JSON.stringify(answer), { status: 200, headers: { 'content-type': 'application/json' } });
  };
}

const transactionNo = () => String(randomInt(10_000_000, 100_000_000));

// ---- the pay page ---------------------------------------------------------------------------------------------

export type SandboxOutcome = 'pay' | 'cancel' | 'fail';

/** The payment request a sandbox URL carries, once its signature is checked; why not, otherwise. */
export type SandboxRequest =
  | {
      ok: true;
      txnRef: string;
      amountVnd: number;
      orderInfo: string;
      returnUrl: string;
      expiresAt: Date | undefined;
      params: Record<string, string>;
    }
  | { ok: false; reason: string };

const single = (query: CallbackQuery, name: string) => (typeof query[name] === 'string' ? (query[name] as string) : undefined);

/** Checks a payment URL's query as VNPay does: our TMN code, version 2.1.0, `pay`, the signature (constant time). */
export function readSandboxRequest(verify: (query: CallbackQuery) => { valid: boolean; amountVnd: number | null }, query: CallbackQuery): SandboxRequest {
  const checked = verify(query);
  if (!checked.valid) return { ok: false, reason: 'Invalid signature (VNPay code 97): this payment link was not signed by the merchant, or was changed.' };
  const params: Record<string, string> = {};
  for (const [key, value] of Object.entries(query)) if (key.startsWith('vnp_') && typeof value === 'string') params[key] = value;
  const returnUrl = single(query, 'vnp_ReturnUrl');
  if (single(query, 'vnp_Version') !== VNPAY_VERSION || single(query, 'vnp_Command') !== 'pay' || !single(query, 'vnp_TxnRef') || checked.amountVnd === null || !returnUrl || !URL.canParse(returnUrl)) {
    return { ok: false, reason: 'The payment request is incomplete (VNPay code 03: invalid data format).' };
  }
  return {
    ok: true,
    txnRef: params.vnp_TxnRef,
    amountVnd: checked.amountVnd,
    orderInfo: params.vnp_OrderInfo ?? '',
    returnUrl,
    expiresAt: parseVnpayDate(params.vnp_ExpireDate),
    params,
  };
}

/** VNPay's callback parameters for an outcome (what it sends to both the IPN and the return URL), unsigned. */
export function callbackParams(request: Extract<SandboxRequest, { ok: true }>, outcome: SandboxOutcome, now: Date): Record<string, string> {
  const expired = request.expiresAt !== undefined && request.expiresAt.getTime() <= now.getTime();
  const code = expired ? '11' : outcome === 'pay' ? '00' : outcome === 'cancel' ? '24' : '51';
  const params: Record<string, string> = {
    vnp_Amount: request.params.vnp_Amount,
    vnp_BankCode: code === '24' || code === '11' ? 'VNPAY' : (request.params.vnp_BankCode ?? 'NCB'),
    vnp_CardType: code === '24' || code === '11' ? 'QRCODE' : 'ATM',
    vnp_OrderInfo: request.orderInfo,
    vnp_PayDate: vnpayDate(now),
    vnp_ResponseCode: code,
    vnp_TmnCode: request.params.vnp_TmnCode,
    vnp_TransactionNo: code === '24' || code === '11' ? '0' : transactionNo(),
    vnp_TransactionStatus: code === '00' ? '00' : '02',
    vnp_TxnRef: request.txnRef,
  };
  if (code === '00') params.vnp_BankTranNo = `VNP${params.vnp_TransactionNo}`;
  return params;
}

/**
 * Completes a sandbox payment: the IPN first (server to server: the IPN route's own command, with the signed
 * query VNPay would send), then where to send the browser: the signed return URL.
 */
export async function completeSandboxPayment(
  app: AppContext,
  secret: string,
  request: Extract<SandboxRequest, { ok: true }>,
  outcome: SandboxOutcome,
  runIpn: (app: AppContext, query: CallbackQuery) => Promise<IpnAnswer>,
  now = new Date(),
): Promise<{ ipn: IpnAnswer; location: string; responseCode: string }> {
  const params = callbackParams(request, outcome, now);
  const query = signedQuery(secret, params);
  const ipn = await runIpn(app, Object.fromEntries(new URLSearchParams(query)));
  if (ipn.RspCode !== '00' && ipn.RspCode !== '02') {
    app.logger.warn({ txnRef: request.txnRef, ipn }, 'the VNPay sandbox IPN was not accepted');
  }
  const separator = request.returnUrl.includes('?') ? '&' : '?';
  return { ipn, location: `${request.returnUrl}${separator}${query}`, responseCode: params.vnp_ResponseCode };
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

const formatVnd = (amount: number) => `${amount.toLocaleString('vi-VN')} ₫`;

/** No scripts, no outside assets: inline styles only, and forms posting to this server. */
/**
 * The pay page's CSP. Browsers hold a form's whole redirect chain to `form-action`: a button posts here, is sent
 * to the return URL (this server), and from there a browser goes on to the public site's return page — so the
 * site's origin is a form target too.
 */
export function sandboxCsp(publicSiteUrl: string): string {
  return `default-src 'none'; style-src 'unsafe-inline'; form-action 'self' ${new URL(publicSiteUrl).origin}; base-uri 'none'; frame-ancestors 'none'`;
}

/** The simulated pay page (or, for a request that does not check out, VNPay's kind of error page: no buttons). */
export function renderSandboxPage(request: SandboxRequest, formAction: string, now = new Date()): string {
  const body = !request.ok
    ? `<p class="error">${escapeHtml(request.reason)}</p><p>Nothing was charged.</p>`
    : `<dl>
  <dt>Merchant</dt><dd>${escapeHtml(request.params.vnp_TmnCode)}</dd>
  <dt>Amount</dt><dd class="amount">${escapeHtml(formatVnd(request.amountVnd))}</dd>
  <dt>Order</dt><dd>${escapeHtml(request.orderInfo)}</dd>
  <dt>Transaction reference</dt><dd><code>${escapeHtml(request.txnRef)}</code></dd>
  <dt>Pay before</dt><dd>${request.expiresAt ? `${escapeHtml(vnpayDate(request.expiresAt).replace(/^(\d{4})(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})$/, '$1-$2-$3 $4:$5:$6'))} (GMT+7)` : 'not given'}</dd>
</dl>
${request.expiresAt && request.expiresAt.getTime() <= now.getTime() ? '<p class="error">This payment link has expired: any button reports VNPay code 11 (timed out).</p>' : ''}
<form method="post" action="${escapeHtml(formAction)}">
  <button name="outcome" value="pay" class="pay">Pay</button>
  <button name="outcome" value="cancel">Cancel (code 24)</button>
  <button name="outcome" value="fail">Fail (code 51)</button>
</form>`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>VNPay sandbox (development)</title>
<style>
  body { font: 16px/1.5 system-ui, sans-serif; max-width: 34rem; margin: 2rem auto; padding: 0 1rem; color: #1b1b1b; }
  .banner { background: #fff3cd; border: 1px solid #e0c36b; padding: .5rem .75rem; border-radius: 4px; }
  dl { display: grid; grid-template-columns: max-content 1fr; gap: .25rem 1rem; }
  dt { color: #555; } dd { margin: 0; } .amount { font-size: 1.4rem; font-weight: 600; }
  .error { color: #a00; font-weight: 600; }
  button { font: inherit; padding: .5rem 1rem; margin-right: .5rem; cursor: pointer; }
  .pay { background: #005baa; color: #fff; border: 1px solid #004a8a; border-radius: 4px; }
</style>
</head>
<body>
<h1>VNPay sandbox</h1>
<p class="banner">Development only: a simulation of VNPay's pay page on this server. No money moves; the result is sent to the
merchant signed as VNPay would (IPN first, then the browser's return).</p>
${body}
</body>
</html>
`;
}
