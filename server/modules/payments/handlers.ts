import type { Call, OperationHandlers } from '../../platform/http/handler.ts';
import { json, redirect } from '../../platform/http/handler.ts';
import { NotFound, ValidationFailed } from '../../platform/http/problem.ts';
import { staffActor } from '../../domain/actors.ts';
import { guestReservation, RESERVATION_PAYABLE, type ReservationStatus } from '../booking/index.ts';
import { completeRefund } from './commands/completeRefund.ts';
import { createRefund } from './commands/createRefund.ts';
import { recordPayment } from './commands/recordPayment.ts';
import { startCheckout } from './commands/startCheckout.ts';
import { vnpayIpn } from './commands/vnpayIpn.ts';
import { vnpayReturn } from './commands/vnpayReturn.ts';
import { vnpaySandboxSubmit } from './commands/vnpaySandboxSubmit.ts';
import { presentCallback, presentPayment, presentRefund, presentReturn } from './presenters.ts';
import { checkoutOptions, listPayments, listRefunds, paymentById, paymentDetail } from './queries.ts';
import { readSandboxRequest, renderSandboxPage, sandboxCsp, type SandboxOutcome } from './sandbox.ts';
import { callbackBaseUrl, siteReturnUrl, vnpayOf } from './vnpay.ts';

/** Unknown reference, wrong token, missing token: one answer (as booking's guest routes). */
const NoSuchReservation = () => NotFound('No such reservation, or the token does not open it.');
const guestToken = (call: Call) => call.header('x-reservation-token') || undefined;
const NO_STORE = { 'Cache-Control': 'no-store' };
const baseUrlOf = (call: Call) => callbackBaseUrl(call.app.config, call.koa.req.socket);

/** The sandbox's routes exist only while it is on (VNPAY_SANDBOX): otherwise the same 404 as an unknown route. */
function sandboxOn(call: Call): void {
  if (!call.app.config.vnpaySandbox) throw NotFound('The VNPay sandbox is off (VNPAY_SANDBOX).');
}

const sandboxRequest = (call: Call) => readSandboxRequest((query) => vnpayOf(call.app).verifyCallback(query), call.koa.query);
const sandboxHtml = (call: Call, html: string) => ({ status: 200 as const, body: html, contentType: 'text/html', headers: { 'Content-Security-Policy': sandboxCsp(call.app.config.publicSiteUrl), ...NO_STORE, 'Referrer-Policy': 'no-referrer' } });

/** The button pressed: a form's `outcome` (urlencoded, as browsers send it, or multipart). */
function sandboxOutcome(call: Call): SandboxOutcome {
  const raw = call.contentType === 'application/x-www-form-urlencoded' ? new URLSearchParams(call.rawBody?.toString('utf8') ?? '').getAll('outcome') : [call.body?.outcome].filter((v) => v !== undefined);
  if (raw.length === 1 && (raw[0] === 'pay' || raw[0] === 'cancel' || raw[0] === 'fail')) return raw[0];
  throw ValidationFailed([{ path: 'body/outcome', message: 'must be one of: pay, cancel, fail', code: 'enum' }]);
}

export const handlers = {
  async getCheckoutOptions(call) {
    const row = await guestReservation(call.app.db.knex, call.params.reference, guestToken(call));
    if (!row) throw NoSuchReservation();
    const options = await checkoutOptions(call.app, { kind: RESERVATION_PAYABLE, id: row.id });
    return json(200, { ...options, status: options.status as ReservationStatus }, NO_STORE);
  },

  async startCheckout(call) {
    const row = await guestReservation(call.app.db.knex, call.params.reference, guestToken(call));
    if (!row) throw NoSuchReservation();
    const answer = await startCheckout(call.app, { kind: RESERVATION_PAYABLE, id: row.id }, call.body, call.ip, baseUrlOf(call));
    return json(201, { ...answer, status: answer.status as ReservationStatus | null }, NO_STORE);
  },

  vnpaySandboxPage(call) {
    sandboxOn(call);
    return sandboxHtml(call, renderSandboxPage(sandboxRequest(call), call.koa.originalUrl));
  },

  async vnpaySandboxSubmit(call) {
    sandboxOn(call);
    const outcome = sandboxOutcome(call);
    const request = sandboxRequest(call);
    if (!request.ok) return sandboxHtml(call, renderSandboxPage(request, call.koa.originalUrl));
    const done = await vnpaySandboxSubmit(call.app, request, outcome, call.log);
    return redirect(done.location, 303, { headers: NO_STORE });
  },

  async vnpayReturn(call) {
    const result = await vnpayReturn(call.app, call.koa.query);
    // A browser navigating here (VNPay sends the guest back) is sent on to the public site's return page with the
    // same signed query, which the page forwards here as a fetch and renders; API clients get the JSON.
    if (call.koa.accepts('json', 'html') === 'html') return redirect(siteReturnUrl(call.app.config, result.locale, call.koa.querystring), 303, { headers: NO_STORE });
    return json(200, presentReturn(result), NO_STORE);
  },

  async vnpayIpn(call) {
    return json(200, await vnpayIpn(call.app, call.koa.query));
  },

  async listPayments(call) {
    const { query } = call;
    const limit = query.limit ?? 20;
    const offset = query.offset ?? 0;
    const page = await listPayments(call.app.db.knex, { reservationId: query.reservationId, status: query.status, gateway: query.gateway, from: query.from, to: query.to, limit, offset });
    return json(200, { items: page.items.map(presentPayment), total: page.total, limit, offset });
  },

  async recordPayment(call) {
    const payment = await recordPayment(call.app, staffActor(call.auth), { kind: RESERVATION_PAYABLE, id: call.body.reservationId }, call.body);
    return json(201, presentPayment(await paymentById(call.app.db.knex, payment.id)));
  },

  async getPayment(call) {
    const detail = await paymentDetail(call.app.db.knex, call.params.paymentId);
    return json(200, { payment: presentPayment(detail.payment), refunds: detail.refunds.map(presentRefund), callbacks: detail.callbacks.map(presentCallback) });
  },

  async createRefund(call) {
    return json(201, presentRefund(await createRefund(call.app, staffActor(call.auth), call.params.paymentId, call.body)));
  },

  async listRefunds(call) {
    const { query } = call;
    const limit = query.limit ?? 20;
    const offset = query.offset ?? 0;
    const page = await listRefunds(call.app.db.knex, { paymentId: query.paymentId, status: query.status, limit, offset });
    return json(200, { items: page.items.map(presentRefund), total: page.total, limit, offset });
  },

  async completeRefund(call) {
    return json(200, presentRefund(await completeRefund(call.app, staffActor(call.auth), call.params.refundId)));
  },
} satisfies Partial<OperationHandlers>;
