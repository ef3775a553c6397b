import type { Call, OperationHandlers } from '../../http/handler.ts';
import { json } from '../../http/handler.ts';
import { NotFound } from '../../http/problem.ts';
import { cancellationActor } from '../showEvents/cancellationHooks.ts';
import { effectiveStatus, reservationForGuest } from '../booking/service.ts';
import { completeRefund, createRefund } from './commands/refunds.ts';
import { recordPayment } from './commands/recordPayment.ts';
import { startCheckout } from './commands/startCheckout.ts';
import { handleIpn, handleReturn } from './commands/vnpayCallbacks.ts';
import { presentCallback, presentPayment, presentRefund } from './presenters.ts';
import { enabledMethods, listPayments, listRefunds, netPaid, paymentById, paymentDetail } from './service.ts';
import './effects.ts';

/** Unknown reference, wrong token, missing token: one answer (as booking's guest routes). */
const NoSuchReservation = () => NotFound('No such reservation, or the token does not open it.');
const guestToken = (call: Call) => call.header('x-reservation-token') || undefined;
const NO_STORE = { 'Cache-Control': 'no-store' };

export const handlers = {
  async getCheckoutOptions(call) {
    const knex = call.app.db.knex;
    const row = await reservationForGuest(knex, call.params.reference, guestToken(call));
    if (!row) throw NoSuchReservation();
    const status = effectiveStatus(row, new Date());
    const methods = await enabledMethods(knex, call.app);
    const amountDueVnd = Math.max(0, row.total_vnd - (await netPaid(knex, row.id)));
    return json(
      200,
      { reference: row.reference, status, payable: status === 'HELD' && amountDueVnd > 0 && methods.length > 0, amountDueVnd, holdExpiresAt: status === 'HELD' && row.hold_expires_at ? new Date(row.hold_expires_at).toISOString() : null, methods },
      NO_STORE,
    );
  },

  async startCheckout(call) {
    const row = await reservationForGuest(call.app.db.knex, call.params.reference, guestToken(call));
    if (!row) throw NoSuchReservation();
    return json(201, await startCheckout(call.app, row, call.body, call.ip), NO_STORE);
  },

  async vnpayReturn(call) {
    return json(200, await handleReturn(call.app, call.koa.query), NO_STORE);
  },

  async vnpayIpn(call) {
    return json(200, await handleIpn(call.app, call.koa.query));
  },

  async listPayments(call) {
    const { query } = call;
    const limit = query.limit ?? 20;
    const offset = query.offset ?? 0;
    const page = await listPayments(call.app.db.knex, { reservationId: query.reservationId, status: query.status, gateway: query.gateway, from: query.from, to: query.to, limit, offset });
    return json(200, { items: page.items.map(presentPayment), total: page.total, limit, offset });
  },

  async recordPayment(call) {
    const payment = await recordPayment(call.app, cancellationActor(call.auth), call.body);
    return json(201, presentPayment(await paymentById(call.app.db.knex, payment.id)));
  },

  async getPayment(call) {
    const detail = await paymentDetail(call.app.db.knex, call.params.paymentId);
    return json(200, { payment: presentPayment(detail.payment), refunds: detail.refunds.map(presentRefund), callbacks: detail.callbacks.map(presentCallback) });
  },

  async createRefund(call) {
    return json(201, presentRefund(await createRefund(call.app, cancellationActor(call.auth), call.params.paymentId, call.body)));
  },

  async listRefunds(call) {
    const { query } = call;
    const limit = query.limit ?? 20;
    const offset = query.offset ?? 0;
    const page = await listRefunds(call.app.db.knex, { paymentId: query.paymentId, status: query.status, limit, offset });
    return json(200, { items: page.items.map(presentRefund), total: page.total, limit, offset });
  },

  async completeRefund(call) {
    return json(200, presentRefund(await completeRefund(call.app, cancellationActor(call.auth), call.params.refundId)));
  },
} satisfies Partial<OperationHandlers>;
