import { randomBytes } from 'node:crypto';
import type { Knex } from 'knex';
import type { AppContext } from '../../platform/context.ts';
import { createVnpayClient, vnpayOptionsFromConfig, type VnpayClient } from '../../platform/integrations/vnpay.ts';
import { NotFound } from '../../platform/http/problem.ts';
import type { PaymentOutcome } from './hooks.ts';
import { SANDBOX_API_URL, SANDBOX_PATH, SANDBOX_TMN_CODE, sandboxApiFetch, sandboxSecret } from './sandbox.ts';

/**
 * Payments (issue 9): which methods a guest may use, what a reservation still owes, and the reads of the admin
 * routes. Writes live in `commands/` (each owns its transaction).
 *
 * Methods at checkout:
 * - `VNPAY`: VNPay configured (VNPAY_TMN_CODE + VNPAY_HASH_SECRET), or the development sandbox on (VNPAY_SANDBOX,
 *   see sandbox.ts), and the commercial setup's gateways hold VNPAY;
 * - `BANK_TRANSFER`: the venue's account configured (BANK_TRANSFER_ACCOUNT_NAME/NUMBER, BANK_TRANSFER_BANK);
 * - `PAY_AT_VENUE`: the commercial setup's gateways hold CASH (paid at the venue, recorded by staff).
 */

export type CheckoutMethod = 'VNPAY' | 'BANK_TRANSFER' | 'PAY_AT_VENUE';
export type Gateway = 'VNPAY' | 'BANK_TRANSFER' | 'CASH' | 'CARD_ON_SITE';
export type PaymentStatus = 'PENDING' | 'SUCCEEDED' | 'FAILED' | 'PARTIALLY_REFUNDED' | 'REFUNDED';
export type RefundStatus = 'PENDING' | 'SUCCEEDED' | 'FAILED';

export interface PaymentRow {
  id: string;
  reservation_id: string;
  gateway: Gateway;
  status: PaymentStatus;
  amount_vnd: number;
  refunded_vnd: number;
  txn_ref: string;
  gateway_transaction_id: string | null;
  bank_code: string | null;
  card_type: string | null;
  gateway_response_code: string | null;
  gateway_paid_at: Date | null;
  recorded_by: string | null;
  note: string | null;
  expires_at: Date | null;
  succeeded_at: Date | null;
  failed_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

export interface RefundRow {
  id: string;
  payment_id: string;
  amount_vnd: number;
  reason: string | null;
  status: RefundStatus;
  requested_by: string | null;
  gateway_refund_id: string | null;
  gateway_response_code: string | null;
  gateway_response: unknown;
  failure_reason: string | null;
  completed_at: Date | null;
  processing_until: Date | null;
  attempts: number;
  created_at: Date;
  updated_at: Date;
}

/** Statuses of a payment whose money was received (part of it may have been given back). */
export const PAID_STATUSES: readonly PaymentStatus[] = ['SUCCEEDED', 'PARTIALLY_REFUNDED'];

/** On-site gateways: refunds are money staff hand back, never a gateway call. */
export const ON_SITE_GATEWAYS: readonly Gateway[] = ['BANK_TRANSFER', 'CASH', 'CARD_ON_SITE'];

const clients = new WeakMap<AppContext, VnpayClient>();

/**
 * The app's VNPay client (one per running app, from its config). With the development sandbox on it is the same
 * client, signing with the sandbox's TMN code and development secret; its pay page is this server's own
 * (`SANDBOX_PATH`, put on the request's base URL by checkout) and its merchant API is answered in process.
 */
export function vnpayOf(app: AppContext): VnpayClient {
  let client = clients.get(app);
  if (!client) {
    const { config } = app;
    if (config.vnpaySandbox) {
      const secret = sandboxSecret(config);
      client = createVnpayClient({
        tmnCode: SANDBOX_TMN_CODE,
        hashSecret: secret,
        paymentUrl: `${config.publicApiUrl}${SANDBOX_PATH}`,
        apiUrl: SANDBOX_API_URL,
        timeoutMs: config.vnpayTimeoutMs,
        fetch: sandboxApiFetch(secret),
      });
    } else {
      client = createVnpayClient(vnpayOptionsFromConfig(config));
    }
    clients.set(app, client);
  }
  return client;
}

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

/** The methods a guest may choose now, in the order the site should offer them. */
export async function enabledMethods(knex: Knex, app: AppContext): Promise<CheckoutMethod[]> {
  const setup = await knex('commercial_setup').where({ id: 1 }).first('payment_gateways');
  const gateways: string[] = typeof setup?.payment_gateways === 'string' ? JSON.parse(setup.payment_gateways) : (setup?.payment_gateways ?? []);
  const methods: CheckoutMethod[] = [];
  if (gateways.includes('VNPAY') && vnpayOf(app).isConfigured) methods.push('VNPAY');
  if (app.config.bankTransfer) methods.push('BANK_TRANSFER');
  if (gateways.includes('CASH')) methods.push('PAY_AT_VENUE');
  return methods;
}

/** What the reservation's payments brought in, net of succeeded refunds (whole VND). */
export async function netPaid(knex: Knex, reservationId: string): Promise<number> {
  const row = await knex('payments')
    .where({ reservation_id: reservationId })
    .whereIn('status', [...PAID_STATUSES, 'REFUNDED'])
    .first(knex.raw('coalesce(sum(amount_vnd - refunded_vnd), 0) as net'));
  return Number(row?.net ?? 0);
}

/** What is left to refund on a payment: paid − refunded − refunds still pending. */
export async function refundable(knex: Knex, payment: Pick<PaymentRow, 'id' | 'amount_vnd' | 'refunded_vnd'>): Promise<number> {
  const row = await knex('refunds').where({ payment_id: payment.id, status: 'PENDING' }).first(knex.raw('coalesce(sum(amount_vnd), 0) as pending'));
  return payment.amount_vnd - payment.refunded_vnd - Number(row?.pending ?? 0);
}

/** A fresh VNPay `vnp_TxnRef`: the reservation's code and 8 random hex digits (unique per attempt). */
export const newVnpayTxnRef = (reference: string) => `${reference.replace(/^VN-/, '')}-${randomBytes(4).toString('hex').toUpperCase()}`;

/** A bank transfer reference guests can type (letters and digits only: banks strip the rest). */
export const newTransferReference = (reference: string) => `BT${reference.replace(/^VN-/, '')}${randomBytes(2).toString('hex').toUpperCase()}`;

/** Our own reference of an on-site payment (txn_ref is unique and required). */
export const newOnSiteReference = (gateway: Gateway, reference: string) => `${gateway === 'CASH' ? 'CS' : gateway === 'CARD_ON_SITE' ? 'CD' : 'BT'}${reference.replace(/^VN-/, '')}${randomBytes(3).toString('hex').toUpperCase()}`;

/** A payment's status once `refundedVnd` of it was given back. */
export const statusAfterRefund = (amountVnd: number, refundedVnd: number): PaymentOutcome & PaymentStatus =>
  refundedVnd >= amountVnd ? 'REFUNDED' : 'PARTIALLY_REFUNDED';

// ---- reads (admin) -------------------------------------------------------------------------------------------

export type PaymentListRow = PaymentRow & { reservation_reference: string };

const paymentQuery = (knex: Knex) => knex('payments as p').join('reservations as r', 'r.id', 'p.reservation_id');

export interface PaymentFilters {
  reservationId?: string;
  status?: PaymentStatus;
  gateway?: Gateway;
  from?: string;
  to?: string;
  limit: number;
  offset: number;
}

export async function listPayments(knex: Knex, filters: PaymentFilters): Promise<{ items: PaymentListRow[]; total: number }> {
  const base = paymentQuery(knex).where((q) => {
    if (filters.reservationId) q.where('p.reservation_id', filters.reservationId);
    if (filters.status) q.where('p.status', filters.status);
    if (filters.gateway) q.where('p.gateway', filters.gateway);
    if (filters.from) q.where('p.created_at', '>=', new Date(filters.from));
    if (filters.to) q.where('p.created_at', '<', new Date(filters.to));
  });
  const [{ count }] = await base.clone().count<{ count: string }[]>({ count: '*' });
  const items = (await base
    .clone()
    .select('p.*', 'r.reference as reservation_reference')
    .orderBy([{ column: 'p.created_at', order: 'desc' }, { column: 'p.id', order: 'desc' }])
    .limit(filters.limit)
    .offset(filters.offset)) as PaymentListRow[];
  return { items, total: Number(count) };
}

export async function paymentById(knex: Knex, id: string): Promise<PaymentListRow> {
  const row = (await paymentQuery(knex).where('p.id', id).first('p.*', 'r.reference as reservation_reference')) as PaymentListRow | undefined;
  if (!row) throw NotFound('No such payment.');
  return row;
}

export async function paymentDetail(knex: Knex, id: string) {
  const payment = await paymentById(knex, id);
  const refunds = (await knex('refunds').where({ payment_id: id }).orderBy([{ column: 'created_at', order: 'desc' }, { column: 'id', order: 'desc' }])) as RefundRow[];
  const callbacks = await knex('payment_callbacks').where({ payment_id: id }).orderBy('id', 'desc').limit(100).select('kind', 'signature_valid', 'outcome', 'received_at');
  return { payment, refunds, callbacks };
}

export async function listRefunds(knex: Knex, filters: { paymentId?: string; status?: RefundStatus; limit: number; offset: number }): Promise<{ items: RefundRow[]; total: number }> {
  const base = knex('refunds').where((q) => {
    if (filters.paymentId) q.where('payment_id', filters.paymentId);
    if (filters.status) q.where('status', filters.status);
  });
  const [{ count }] = await base.clone().count<{ count: string }[]>({ count: '*' });
  const items = (await base
    .clone()
    .select('*')
    .orderBy([{ column: 'created_at', order: 'desc' }, { column: 'id', order: 'desc' }])
    .limit(filters.limit)
    .offset(filters.offset)) as RefundRow[];
  return { items, total: Number(count) };
}
