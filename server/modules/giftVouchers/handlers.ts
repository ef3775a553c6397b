import type { Call, OperationHandlers } from '../../platform/http/handler.ts';
import { json } from '../../platform/http/handler.ts';
import { staffActor } from '../../domain/actors.ts';
import { getCommercialSetup } from '../commercialSetup/index.ts';
import { callbackBaseUrl } from '../payments/index.ts';
import { purchaseGiftVoucher } from './commands/purchaseGiftVoucher.ts';
import { refundGiftVoucherOrder } from './commands/refundGiftVoucherOrder.ts';
import { startGiftVoucherCheckout } from './commands/startGiftVoucherCheckout.ts';
import { throttlePurchase } from './limits.ts';
import { presentOrder, presentPublicOrder } from './presenters.ts';
import { listOrders, NoSuchOrder, orderOpenedByToken, voucherFacts } from './queries.ts';
import { MAX_DELIVERY_DAYS_AHEAD } from './rules.ts';

const NO_STORE = { 'Cache-Control': 'no-store' };
const orderToken = (call: Call) => call.header('x-gift-order-token') || undefined;

export const handlers = {
  async getGiftVoucherOptions() {
    const setup = await getCommercialSetup();
    const customAmount = setup.giftVoucherMinVnd !== null && setup.giftVoucherMaxVnd !== null ? { minVnd: setup.giftVoucherMinVnd, maxVnd: setup.giftVoucherMaxVnd } : null;
    return json(200, { amountsVnd: [...setup.giftVoucherAmountsVnd], customAmount, validityMonths: setup.giftVoucherValidityMonths, maxDeliveryDaysAhead: MAX_DELIVERY_DAYS_AHEAD, currency: 'VND' as const });
  },

  async purchaseGiftVoucher(call) {
    const answer = await purchaseGiftVoucher(call.app, call.body, call.header('idempotency-key') || undefined, () => throttlePurchase(call.app, call.ip));
    return json(201, answer.body, { ...NO_STORE, ...(answer.replayed ? { 'Idempotent-Replayed': 'true' } : {}) });
  },

  async getPublicGiftVoucherOrder(call) {
    const order = await orderOpenedByToken(call.app.db.knex, call.params.reference, orderToken(call));
    if (!order) throw NoSuchOrder();
    return json(200, presentPublicOrder(order, new Date()), NO_STORE);
  },

  async startGiftVoucherCheckout(call) {
    const order = await orderOpenedByToken(call.app.db.knex, call.params.reference, orderToken(call));
    if (!order) throw NoSuchOrder();
    return json(201, await startGiftVoucherCheckout(call.app, order, call.body, call.ip, callbackBaseUrl(call.app.config, call.koa.req.socket)), NO_STORE);
  },

  async listGiftVoucherOrders(call) {
    const { query } = call;
    const limit = query.limit ?? 20;
    const offset = query.offset ?? 0;
    const now = new Date();
    const page = await listOrders(call.app.db.knex, { status: query.status, q: query.q, limit, offset }, now);
    return json(200, { items: page.items.map((row) => presentOrder(row, now)), total: page.total, limit, offset });
  },

  async refundGiftVoucherOrder(call) {
    const order = await refundGiftVoucherOrder(call.app, staffActor(call.auth), call.params.orderId, call.body?.reason);
    const vouchers = await voucherFacts(call.app.db.knex, order.voucherId ? [order.voucherId] : []);
    return json(200, presentOrder({ order, ...(vouchers.get(order.voucherId ?? '') ?? { voucherCode: null, voucherRemainingVnd: null }) }, new Date()));
  },
} satisfies Partial<OperationHandlers>;
