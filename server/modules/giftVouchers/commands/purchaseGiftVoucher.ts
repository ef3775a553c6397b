import type { Knex } from 'knex';
import type { operations } from '../../../../sdk/schema.d.ts';
import type { AppContext } from '../../../platform/context.ts';
import { digest, newAccessToken } from '../../../platform/auth/tokens.ts';
import { lockIdempotencyKey, rememberAnswer, rememberedAnswer, requestHash } from '../../../platform/db/idempotency.ts';
import { Unprocessable, type FieldError } from '../../../platform/http/problem.ts';
import { inUnitOfWork } from '../../../platform/unitOfWork.ts';
import { getCommercialSetup } from '../../commercialSetup/index.ts';
import { GiftVoucherOrder } from '../models.ts';
import { presentPublicOrder } from '../presenters.ts';
import { amountOffered, deliveryDateAllowed, MAX_DELIVERY_DAYS_AHEAD, newOrderReference, ORDER_PAY_MINUTES } from '../rules.ts';

export type GiftVoucherPurchase = operations['purchaseGiftVoucher']['requestBody']['content']['application/json'];
type CreatedOrder = operations['purchaseGiftVoucher']['responses']['201']['content']['application/json'];
export type PurchaseAnswer = { body: CreatedOrder; replayed: boolean };

/** The route an Idempotency-Key is scoped to. */
export const PURCHASE_ROUTE = 'POST /api/public/gift-vouchers';

async function remembered(knex: Knex, key: string, hash: Buffer, now: Date): Promise<PurchaseAnswer | undefined> {
  const answer = await rememberedAnswer(knex, PURCHASE_ROUTE, key, hash, now);
  return answer ? { body: JSON.parse(answer.body), replayed: true } : undefined;
}

/** The amount and the delivery date against the venue's terms: 422 naming every failing field. */
async function checkTerms(app: AppContext, input: GiftVoucherPurchase, now: Date): Promise<void> {
  const setup = await getCommercialSetup(app.db.knex);
  const errors: FieldError[] = [];
  if (!amountOffered(input.amountVnd, { amountsVnd: setup.giftVoucherAmountsVnd, minVnd: setup.giftVoucherMinVnd, maxVnd: setup.giftVoucherMaxVnd })) {
    const free = setup.giftVoucherMinVnd !== null ? `, or from ${setup.giftVoucherMinVnd} to ${setup.giftVoucherMaxVnd}` : '';
    errors.push({ path: 'body/amountVnd', message: `must be one of ${setup.giftVoucherAmountsVnd.join(', ') || 'none'}${free}`, code: 'gift_voucher_amount_not_offered' });
  }
  if (!deliveryDateAllowed(input.deliveryDate, app.config.venueTimezone, now)) {
    errors.push({ path: 'body/deliveryDate', message: `must be from today to ${MAX_DELIVERY_DAYS_AHEAD} days ahead (venue time)`, code: 'delivery_date_out_of_range' });
  }
  if (errors.length) throw Unprocessable(errors[0].code as 'gift_voucher_amount_not_offered' | 'delivery_date_out_of_range', 'The gift voucher cannot be ordered as asked.', errors);
}

/**
 * A guest orders a gift voucher (issue 36 §1): the amount and the delivery date are checked against the venue's
 * terms, then a PENDING order is written with its reference and the SHA-256 of a new access token, waiting
 * `ORDER_PAY_MINUTES` for its payment (`startGiftVoucherCheckout`). With an Idempotency-Key the answer (with the token)
 * is remembered sealed in the same transaction, as the hold's is; the same key and body answer it again and write
 * nothing; `throttle` (the address's budget, 429) is spent only by a request that writes.
 */
export async function purchaseGiftVoucher(app: AppContext, input: GiftVoucherPurchase, idempotencyKey: string | undefined, throttle: () => Promise<void>, now = new Date()): Promise<PurchaseAnswer> {
  const keyed = idempotencyKey ? { key: idempotencyKey, hash: requestHash(input) } : undefined;
  if (keyed) {
    const before = await remembered(app.db.knex, keyed.key, keyed.hash, now);
    if (before) return before;
  }
  await checkTerms(app, input, now);
  await throttle();
  return inUnitOfWork({ knex: app.db.knex, logger: app.logger }, async ({ trx }) => {
    if (keyed) {
      await lockIdempotencyKey(trx, PURCHASE_ROUTE, keyed.key);
      const raced = await remembered(trx, keyed.key, keyed.hash, now);
      if (raced) return raced;
    }
    const token = newAccessToken();
    const order = await GiftVoucherOrder.query(trx).insertAndFetch({
      reference: newOrderReference(),
      accessTokenHash: digest(token),
      status: 'PENDING',
      amountVnd: input.amountVnd,
      buyerName: input.buyer.name.trim(),
      buyerEmail: input.buyer.email.trim(),
      recipientName: input.recipient.name.trim(),
      recipientEmail: input.recipient.email.trim(),
      message: input.message?.trim() || null,
      deliveryDate: input.deliveryDate,
      locale: orderLocale(app, input.locale),
      payBy: new Date(now.getTime() + ORDER_PAY_MINUTES * 60_000),
      createdAt: now,
      updatedAt: now,
    });
    const body: CreatedOrder = { ...presentPublicOrder(order, now), accessToken: token };
    if (keyed) await rememberAnswer(trx, PURCHASE_ROUTE, keyed.key, keyed.hash, 201, JSON.stringify(body), now);
    return { body, replayed: false };
  }, now);
}

/** One of the site's locales (its language part), else the default. */
function orderLocale(app: AppContext, asked: string | undefined): string {
  const language = asked?.toLowerCase().split('-')[0];
  return language && app.config.siteLocales.includes(language) ? language : app.config.defaultLocale;
}
