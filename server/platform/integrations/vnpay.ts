import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Config } from '../config.ts';

/**
 * VNPay payment gateway, protocol version 2.1.0 (HMAC-SHA512), as published at
 * https://sandbox.vnpayment.vn/apis/docs/thanh-toan-pay/pay.html (payment URL, return URL, IPN) and
 * https://sandbox.vnpayment.vn/apis/docs/truy-van-hoan-tien/querydr&refund.html (querydr, refund).
 *
 * A small client of our own rather than the `vnpay` npm package: that package compares signatures with `!==`
 * (not constant time), sends its API requests without a time-out, and its refund code never checks the
 * response signature (the guard `code <= 90 && code >= 99` is always false). The protocol is three hashes and
 * two JSON posts; owning them keeps every check visible and testable.
 *
 * - Payment URL and callbacks (return and IPN): the `vnp_*` parameters (without `vnp_SecureHash` and
 *   `vnp_SecureHashType`) sorted by key, each key and value encoded as VNPay's Node.js sample does
 *   (`encodeURIComponent`, then `%20` → `+`), joined as `k=v&k=v`; `vnp_SecureHash` is the lowercase hex
 *   HMAC-SHA512 of that string under the hash secret. The payment URL's query string is that same string.
 * - querydr / refund: a JSON POST to the API URL, signed over the documented fields joined with `|`; the
 *   answer is signed the same way over its own fields and is checked before anything in it is believed.
 *
 * Unconfigured (no TMN code or hash secret) the client says so (`isConfigured: false`): creating a URL or
 * calling the API throws `VnpayError('not_configured')` and no callback verifies. It never pretends.
 */

export const VNPAY_VERSION = '2.1.0';

export type VnpayLocale = 'vn' | 'en';

export interface VnpayOptions {
  tmnCode?: string;
  hashSecret?: string;
  /** `…/paymentv2/vpcpay.html`. */
  paymentUrl: string;
  /** `…/merchant_webapi/api/transaction` (querydr and refund). */
  apiUrl: string;
  /** Time-out of one API request. */
  timeoutMs: number;
  /** How API requests are sent (default the global `fetch`); the development sandbox answers them in process. */
  fetch?: typeof fetch;
}

export type VnpayErrorCode =
  | 'not_configured'
  | 'invalid_input'
  | 'timeout'
  | 'network'
  | 'http_status'
  | 'bad_response'
  | 'bad_signature';

/** Every failure of this client; `code` says which. Nothing here turns a failure into a success. */
export class VnpayError extends Error {
  readonly code: VnpayErrorCode;
  /** HTTP status of the API answer (code `http_status`). */
  readonly status?: number;
  /** VNPay's `vnp_ResponseCode`, when the answer carried one. */
  readonly responseCode?: string;
  constructor(code: VnpayErrorCode, message: string, extra: { status?: number; responseCode?: string; cause?: unknown } = {}) {
    super(message, extra.cause === undefined ? undefined : { cause: extra.cause });
    this.name = 'VnpayError';
    this.code = code;
    this.status = extra.status;
    this.responseCode = extra.responseCode;
  }
}

export interface CreatePaymentUrlInput {
  /** `vnp_TxnRef`: unique per payment attempt (letters, digits, `-`, `_`; at most 100). */
  txnRef: string;
  /** Whole VND; sent as `vnp_Amount` = amount × 100. */
  amountVnd: number;
  /** `vnp_OrderInfo`: normalized to ASCII without diacritics or special characters (VNPay's rule), ≤ 255. */
  orderInfo: string;
  locale: VnpayLocale;
  /** The guest's IP address (`vnp_IpAddr`). */
  ipAddr: string;
  /** Where VNPay sends the browser back (`vnp_ReturnUrl`), absolute http(s). */
  returnUrl: string;
  createdAt: Date;
  /** `vnp_ExpireDate`: after it VNPay refuses the payment. */
  expiresAt: Date;
  /** `vnp_BankCode`: pre-selects a method (e.g. `VNPAYQR`, `VNBANK`, `INTCARD`); omitted → the guest chooses. */
  bankCode?: string;
  /** `vnp_OrderType`, default `other`. */
  orderType?: string;
  /** The pay page to send the guest to, instead of the configured one (the development sandbox's own address). */
  paymentUrl?: string;
}

/** What a return or IPN call says, once read. Act on it only when `valid`. */
export interface VnpayCallback {
  /** The signature is VNPay's (constant-time compare) and the TMN code is ours. */
  valid: boolean;
  txnRef: string | undefined;
  /** `vnp_Amount` ÷ 100; null when missing or not a whole VND (treat as a wrong amount). */
  amountVnd: number | null;
  responseCode: string | undefined;
  transactionStatus: string | undefined;
  /** VNPay's transaction number (needed for refunds). */
  transactionNo: string | undefined;
  bankCode: string | undefined;
  bankTranNo: string | undefined;
  cardType: string | undefined;
  /** `vnp_PayDate`, `yyyyMMddHHmmss` GMT+7, as sent. */
  payDate: string | undefined;
  /** `responseCode === '00' && transactionStatus === '00'`; meaningful only when `valid`. */
  success: boolean;
}

export type CallbackQuery = Record<string, string | string[] | undefined>;

export interface RefundInput {
  txnRef: string;
  /** Whole VND to give back (≤ what was paid and not yet refunded: the caller's rule). */
  amountVnd: number;
  /** `full` → `vnp_TransactionType=02`, `partial` → `03`. */
  kind: 'full' | 'partial';
  /** The payment's `vnp_TransactionNo`; omitted → `0` as in VNPay's sample. */
  transactionNo?: string;
  /** The payment's `vnp_CreateDate` (a Date, or its `yyyyMMddHHmmss` GMT+7 text). */
  transactionDate: Date | string;
  /** Who asks (an operator's name or id). */
  createdBy: string;
  /** The IP address of the server calling the API. */
  ipAddr: string;
  orderInfo?: string;
  /** Unique per request within a day (≤ 32 alphanumerics); default: 32 random hex digits. */
  requestId?: string;
  /** Request time (default now). */
  createdAt?: Date;
}

export interface QueryTransactionInput {
  txnRef: string;
  transactionDate: Date | string;
  ipAddr: string;
  orderInfo?: string;
  requestId?: string;
  createdAt?: Date;
}

/** A signed, verified answer of the API. `ok` is VNPay's `vnp_ResponseCode === '00'`. */
export interface VnpayApiResult {
  ok: boolean;
  responseCode: string;
  message: string;
  responseId: string;
  txnRef: string;
  /** `vnp_Amount` ÷ 100 (null when absent or not whole). */
  amountVnd: number | null;
  transactionNo: string;
  transactionType: string;
  transactionStatus: string;
  bankCode: string;
  payDate: string;
  /** The answer as received. */
  raw: Record<string, unknown>;
}

export interface VnpayQueryResult extends VnpayApiResult {
  /** Paid: `ok` and `transactionStatus === '00'`. */
  paid: boolean;
}

export interface VnpayClient {
  readonly isConfigured: boolean;
  createPaymentUrl(input: CreatePaymentUrlInput): string;
  verifyCallback(query: CallbackQuery): VnpayCallback;
  refund(input: RefundInput): Promise<VnpayApiResult>;
  queryTransaction(input: QueryTransactionInput): Promise<VnpayQueryResult>;
}

/** The `{RspCode, Message}` answers VNPay expects from the IPN URL (HTTP 200, JSON). */
export interface IpnAnswer {
  RspCode: '00' | '01' | '02' | '04' | '97' | '99';
  Message: string;
}

export const ipnResponse = {
  success: (): IpnAnswer => ({ RspCode: '00', Message: 'Confirm Success' }),
  orderNotFound: (): IpnAnswer => ({ RspCode: '01', Message: 'Order not found' }),
  alreadyConfirmed: (): IpnAnswer => ({ RspCode: '02', Message: 'Order already confirmed' }),
  invalidAmount: (): IpnAnswer => ({ RspCode: '04', Message: 'Invalid amount' }),
  invalidSignature: (): IpnAnswer => ({ RspCode: '97', Message: 'Invalid signature' }),
  unknownError: (): IpnAnswer => ({ RspCode: '99', Message: 'Unknown error' }),
} as const;

// --- protocol primitives -------------------------------------------------------------------------------

const GMT7_MS = 7 * 3600 * 1000;

/** `yyyyMMddHHmmss` in GMT+7 (Vietnam has no daylight saving time). */
export function vnpayDate(date: Date): string {
  if (Number.isNaN(date.getTime())) throw new VnpayError('invalid_input', 'invalid date');
  const d = new Date(date.getTime() + GMT7_MS);
  const pad = (n: number, w = 2) => String(n).padStart(w, '0');
  return `${pad(d.getUTCFullYear(), 4)}${pad(d.getUTCMonth() + 1)}${pad(d.getUTCDate())}${pad(d.getUTCHours())}${pad(d.getUTCMinutes())}${pad(d.getUTCSeconds())}`;
}

/** Reads a `yyyyMMddHHmmss` GMT+7 text; undefined when it is not one. */
export function parseVnpayDate(text: string | undefined): Date | undefined {
  const m = /^(\d{4})(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})$/.exec(text ?? '');
  if (!m) return undefined;
  const [y, mo, d, h, mi, s] = m.slice(1).map(Number);
  const ms = Date.UTC(y, mo - 1, d, h, mi, s) - GMT7_MS;
  const date = new Date(ms);
  return vnpayDate(date) === text ? date : undefined;
}

/** VNPay's Node.js sample encoding: `encodeURIComponent`, spaces as `+`. */
function encode(value: string): string {
  return encodeURIComponent(value).replace(/%20/g, '+');
}

function hmac512(secret: string, data: string): string {
  return createHmac('sha512', secret).update(data, 'utf8').digest('hex');
}

/** The string signed for a payment URL or callback: sorted `k=v` pairs, encoded, joined by `&`. */
export function canonicalQuery(params: Record<string, string>): string {
  return Object.keys(params)
    .filter((key) => key !== 'vnp_SecureHash' && key !== 'vnp_SecureHashType')
    .sort()
    .map((key) => `${encode(key)}=${encode(params[key])}`)
    .join('&');
}

/**
 * `params` as a signed query string: the canonical query and its `vnp_SecureHash` (HMAC-SHA512 under `secret`).
 * What a payment URL carries after its `?`, and what VNPay sends to the return and IPN URLs; the development
 * sandbox (server/modules/payments/sandbox.ts) signs its callbacks with it.
 */
export function signedQuery(secret: string, params: Record<string, string>): string {
  const signed = canonicalQuery(params);
  return `${signed}&vnp_SecureHash=${hmac512(secret, signed)}`;
}

/** Constant-time comparison of two hex digests (false when either is not 128 hex digits). */
function sameDigest(expectedHex: string, receivedHex: unknown): boolean {
  if (typeof receivedHex !== 'string' || !/^[0-9a-fA-F]{128}$/.test(receivedHex)) return false;
  return timingSafeEqual(Buffer.from(expectedHex, 'hex'), Buffer.from(receivedHex, 'hex'));
}

/**
 * `vnp_OrderInfo` as VNPay wants it: Vietnamese without diacritics, no special characters. Also keeps the
 * text to characters every VNPay sample encodes alike (their Java, PHP and Node samples differ on `!'()*~`).
 */
export function normalizeOrderInfo(text: string): string {
  const plain = text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/đ/g, 'd')
    .replace(/Đ/g, 'D')
    .replace(/[^A-Za-z0-9 .,:#/_-]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, 255)
    .trim();
  if (!plain) throw new VnpayError('invalid_input', 'orderInfo is empty once normalized');
  return plain;
}

function vndTimes100(amountVnd: number, what: string): string {
  // vnp_Amount is Numeric[1,12].
  if (!Number.isSafeInteger(amountVnd) || amountVnd <= 0 || amountVnd * 100 > 999_999_999_999) {
    throw new VnpayError('invalid_input', `${what} must be a whole number of VND from 1 to 9999999999`);
  }
  return String(amountVnd * 100);
}

function amountFrom100(raw: unknown): number | null {
  const text = typeof raw === 'number' ? String(raw) : raw;
  if (typeof text !== 'string' || !/^\d{1,15}$/.test(text)) return null;
  const value = Number(text);
  return value % 100 === 0 ? value / 100 : null;
}

function check(ok: boolean, message: string): void {
  if (!ok) throw new VnpayError('invalid_input', message);
}

const TXN_REF = /^[A-Za-z0-9_-]{1,100}$/;

function dateText(value: Date | string, what: string): string {
  if (value instanceof Date) return vnpayDate(value);
  check(parseVnpayDate(value) !== undefined, `${what} must be a Date or yyyyMMddHHmmss (GMT+7)`);
  return value;
}

function ipText(ipAddr: string): string {
  const ip = ipAddr.trim().replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/, '');
  check(/^[0-9A-Fa-f.:]{2,45}$/.test(ip), 'ipAddr must be an IPv4 or IPv6 address');
  return ip;
}

// --- the client -----------------------------------------------------------------------------------------

export function vnpayOptionsFromConfig(config: Config): VnpayOptions {
  return {
    tmnCode: config.vnpayTmnCode,
    hashSecret: config.vnpayHashSecret,
    paymentUrl: config.vnpayPaymentUrl,
    apiUrl: config.vnpayApiUrl,
    timeoutMs: config.vnpayTimeoutMs,
  };
}

/** The fields, in order, whose `|`-joined values are signed: request and answer of each API command. */
const SIGNED_FIELDS = {
  refundRequest: [
    'vnp_RequestId', 'vnp_Version', 'vnp_Command', 'vnp_TmnCode', 'vnp_TransactionType', 'vnp_TxnRef', 'vnp_Amount',
    'vnp_TransactionNo', 'vnp_TransactionDate', 'vnp_CreateBy', 'vnp_CreateDate', 'vnp_IpAddr', 'vnp_OrderInfo',
  ],
  refundResponse: [
    'vnp_ResponseId', 'vnp_Command', 'vnp_ResponseCode', 'vnp_Message', 'vnp_TmnCode', 'vnp_TxnRef', 'vnp_Amount',
    'vnp_BankCode', 'vnp_PayDate', 'vnp_TransactionNo', 'vnp_TransactionType', 'vnp_TransactionStatus', 'vnp_OrderInfo',
  ],
  querydrRequest: [
    'vnp_RequestId', 'vnp_Version', 'vnp_Command', 'vnp_TmnCode', 'vnp_TxnRef', 'vnp_TransactionDate', 'vnp_CreateDate',
    'vnp_IpAddr', 'vnp_OrderInfo',
  ],
  querydrResponse: [
    'vnp_ResponseId', 'vnp_Command', 'vnp_ResponseCode', 'vnp_Message', 'vnp_TmnCode', 'vnp_TxnRef', 'vnp_Amount',
    'vnp_BankCode', 'vnp_PayDate', 'vnp_TransactionNo', 'vnp_TransactionType', 'vnp_TransactionStatus', 'vnp_OrderInfo',
    'vnp_PromotionCode', 'vnp_PromotionAmount',
  ],
} as const;

function pipeJoined(fields: readonly string[], data: Record<string, unknown>): string {
  return fields.map((field) => (data[field] === undefined || data[field] === null ? '' : String(data[field]))).join('|');
}

/**
 * The `vnp_SecureHash` of an API message (`refundRequest`, `refundResponse`, `querydrRequest`,
 * `querydrResponse`): HMAC-SHA512 of its documented fields joined with `|`. For the development sandbox, which
 * checks requests and signs answers as VNPay's merchant API does.
 */
export function apiMessageHash(secret: string, kind: keyof typeof SIGNED_FIELDS, data: Record<string, unknown>): string {
  return hmac512(secret, pipeJoined(SIGNED_FIELDS[kind], data));
}

/** Whether `received` is the hash of `expected`'s kind (constant time). */
export function sameApiHash(expectedHex: string, received: unknown): boolean {
  return sameDigest(expectedHex, received);
}

export function createVnpayClient(options: VnpayOptions): VnpayClient {
  const tmnCode = options.tmnCode?.trim() || undefined;
  const secret = options.hashSecret?.trim() || undefined;
  const isConfigured = Boolean(tmnCode && secret);

  function configured(): { tmnCode: string; secret: string } {
    if (!tmnCode || !secret) throw new VnpayError('not_configured', 'VNPay is not configured (VNPAY_TMN_CODE, VNPAY_HASH_SECRET)');
    return { tmnCode, secret };
  }

  function createPaymentUrl(input: CreatePaymentUrlInput): string {
    const { tmnCode: code, secret: key } = configured();
    check(TXN_REF.test(input.txnRef), 'txnRef must be 1–100 letters, digits, - or _');
    check(input.locale === 'vn' || input.locale === 'en', 'locale must be vn or en');
    check(/^https?:\/\/[^\s]+$/i.test(input.returnUrl) && URL.canParse(input.returnUrl), 'returnUrl must be an absolute http(s) URL');
    check(input.bankCode === undefined || /^[A-Za-z0-9]{3,20}$/.test(input.bankCode), 'bankCode must be 3–20 letters or digits');
    check(input.orderType === undefined || /^[a-z0-9_]{1,100}$/.test(input.orderType), 'orderType must be a VNPay category code');
    check(input.expiresAt.getTime() > input.createdAt.getTime(), 'expiresAt must be after createdAt');
    const params: Record<string, string> = {
      vnp_Version: VNPAY_VERSION,
      vnp_Command: 'pay',
      vnp_TmnCode: code,
      vnp_Amount: vndTimes100(input.amountVnd, 'amountVnd'),
      vnp_CurrCode: 'VND',
      vnp_TxnRef: input.txnRef,
      vnp_OrderInfo: normalizeOrderInfo(input.orderInfo),
      vnp_OrderType: input.orderType ?? 'other',
      vnp_Locale: input.locale,
      vnp_ReturnUrl: input.returnUrl,
      vnp_IpAddr: ipText(input.ipAddr),
      vnp_CreateDate: vnpayDate(input.createdAt),
      vnp_ExpireDate: vnpayDate(input.expiresAt),
    };
    if (input.bankCode) params.vnp_BankCode = input.bankCode;
    check(input.paymentUrl === undefined || (/^https?:\/\/[^\s?#]+$/i.test(input.paymentUrl) && URL.canParse(input.paymentUrl)), 'paymentUrl must be an absolute http(s) URL without a query');
    return `${input.paymentUrl ?? options.paymentUrl}?${signedQuery(key, params)}`;
  }

  function verifyCallback(query: CallbackQuery): VnpayCallback {
    const single = (name: string): string | undefined => {
      const value = query[name];
      return typeof value === 'string' ? value : undefined;
    };
    const params: Record<string, string> = {};
    let duplicated = false;
    for (const [name, value] of Object.entries(query)) {
      if (!name.startsWith('vnp_') || value === undefined) continue;
      if (typeof value !== 'string') duplicated = true;
      else params[name] = value;
    }
    let valid = false;
    if (isConfigured && !duplicated) {
      valid = sameDigest(hmac512(secret!, canonicalQuery(params)), single('vnp_SecureHash')) && params.vnp_TmnCode === tmnCode;
    }
    const responseCode = single('vnp_ResponseCode');
    const transactionStatus = single('vnp_TransactionStatus');
    return {
      valid,
      txnRef: single('vnp_TxnRef'),
      amountVnd: amountFrom100(single('vnp_Amount')),
      responseCode,
      transactionStatus,
      transactionNo: single('vnp_TransactionNo'),
      bankCode: single('vnp_BankCode'),
      bankTranNo: single('vnp_BankTranNo'),
      cardType: single('vnp_CardType'),
      payDate: single('vnp_PayDate'),
      success: responseCode === '00' && transactionStatus === '00',
    };
  }

  async function post(
    body: Record<string, string>,
    responseFields: readonly string[],
    key: string,
  ): Promise<VnpayApiResult> {
    let response: Response;
    try {
      response = await (options.fetch ?? fetch)(options.apiUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(options.timeoutMs),
      });
    } catch (err) {
      const name = (err as Error)?.name;
      if (name === 'TimeoutError' || name === 'AbortError') {
        throw new VnpayError('timeout', `VNPay ${body.vnp_Command}: no answer within ${options.timeoutMs} ms`, { cause: err });
      }
      throw new VnpayError('network', `VNPay ${body.vnp_Command}: ${(err as Error)?.message ?? 'request failed'}`, { cause: err });
    }
    let text: string;
    try {
      text = await response.text();
    } catch (err) {
      const name = (err as Error)?.name;
      const code = name === 'TimeoutError' || name === 'AbortError' ? 'timeout' : 'network';
      throw new VnpayError(code, `VNPay ${body.vnp_Command}: the answer could not be read`, { cause: err });
    }
    if (!response.ok) {
      throw new VnpayError('http_status', `VNPay ${body.vnp_Command}: HTTP ${response.status}`, { status: response.status });
    }
    let data: Record<string, unknown>;
    try {
      const parsed: unknown = JSON.parse(text);
      if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw new Error('not an object');
      data = parsed as Record<string, unknown>;
    } catch (err) {
      throw new VnpayError('bad_response', `VNPay ${body.vnp_Command}: the answer is not a JSON object`, { cause: err });
    }
    const responseCode = data.vnp_ResponseCode === undefined ? '' : String(data.vnp_ResponseCode);
    if (!sameDigest(hmac512(key, pipeJoined(responseFields, data)), data.vnp_SecureHash)) {
      throw new VnpayError('bad_signature', `VNPay ${body.vnp_Command}: the answer's signature does not match (response code "${responseCode}")`, {
        responseCode,
      });
    }
    const str = (field: string) => (data[field] === undefined || data[field] === null ? '' : String(data[field]));
    return {
      ok: responseCode === '00',
      responseCode,
      message: str('vnp_Message'),
      responseId: str('vnp_ResponseId'),
      txnRef: str('vnp_TxnRef'),
      amountVnd: amountFrom100(data.vnp_Amount),
      transactionNo: str('vnp_TransactionNo'),
      transactionType: str('vnp_TransactionType'),
      transactionStatus: str('vnp_TransactionStatus'),
      bankCode: str('vnp_BankCode'),
      payDate: str('vnp_PayDate'),
      raw: data,
    };
  }

  function requestId(value: string | undefined): string {
    if (value === undefined) return randomBytes(16).toString('hex');
    check(/^[A-Za-z0-9]{1,32}$/.test(value), 'requestId must be 1–32 letters or digits');
    return value;
  }

  async function refund(input: RefundInput): Promise<VnpayApiResult> {
    const { tmnCode: code, secret: key } = configured();
    check(TXN_REF.test(input.txnRef), 'txnRef must be 1–100 letters, digits, - or _');
    check(input.kind === 'full' || input.kind === 'partial', 'kind must be full or partial');
    check(input.transactionNo === undefined || /^\d{1,20}$/.test(input.transactionNo), 'transactionNo must be digits');
    check(/^[^|]{1,250}$/.test(input.createdBy.trim()), 'createdBy must be 1–250 characters without |');
    const body: Record<string, string> = {
      vnp_RequestId: requestId(input.requestId),
      vnp_Version: VNPAY_VERSION,
      vnp_Command: 'refund',
      vnp_TmnCode: code,
      vnp_TransactionType: input.kind === 'full' ? '02' : '03',
      vnp_TxnRef: input.txnRef,
      vnp_Amount: vndTimes100(input.amountVnd, 'amountVnd'),
      vnp_TransactionNo: input.transactionNo ?? '0',
      vnp_TransactionDate: dateText(input.transactionDate, 'transactionDate'),
      vnp_CreateBy: input.createdBy.trim(),
      vnp_CreateDate: vnpayDate(input.createdAt ?? new Date()),
      vnp_IpAddr: ipText(input.ipAddr),
      vnp_OrderInfo: normalizeOrderInfo(input.orderInfo ?? `Hoan tien ${input.txnRef}`),
    };
    body.vnp_SecureHash = hmac512(key, pipeJoined(SIGNED_FIELDS.refundRequest, body));
    return post(body, SIGNED_FIELDS.refundResponse, key);
  }

  async function queryTransaction(input: QueryTransactionInput): Promise<VnpayQueryResult> {
    const { tmnCode: code, secret: key } = configured();
    check(TXN_REF.test(input.txnRef), 'txnRef must be 1–100 letters, digits, - or _');
    const body: Record<string, string> = {
      vnp_RequestId: requestId(input.requestId),
      vnp_Version: VNPAY_VERSION,
      vnp_Command: 'querydr',
      vnp_TmnCode: code,
      vnp_TxnRef: input.txnRef,
      vnp_OrderInfo: normalizeOrderInfo(input.orderInfo ?? `Truy van ${input.txnRef}`),
      vnp_TransactionDate: dateText(input.transactionDate, 'transactionDate'),
      vnp_CreateDate: vnpayDate(input.createdAt ?? new Date()),
      vnp_IpAddr: ipText(input.ipAddr),
    };
    body.vnp_SecureHash = hmac512(key, pipeJoined(SIGNED_FIELDS.querydrRequest, body));
    const result = await post(body, SIGNED_FIELDS.querydrResponse, key);
    return { ...result, paid: result.ok && result.transactionStatus === '00' };
  }

  return { isConfigured, createPaymentUrl, verifyCallback, refund, queryTransaction };
}
