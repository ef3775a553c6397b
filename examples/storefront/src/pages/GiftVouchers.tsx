import { useState, type FormEvent } from 'react';
import { api, giftOrderToken, rememberGiftOrder, venueToday, vnd } from '../api.ts';
import { words, type Locale } from '../i18n.ts';
import { Link } from '../router.tsx';
import { Await, Field, ProblemNotice, TextField, useLoad, useTitle } from '../ui.tsx';
import { useSend } from './Forms.tsx';

/** `2026-12-24` plus `days` calendar days. */
const addDays = (date: string, days: number) => new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);

/** A failing field (`buyer.email`) → the input it belongs to (`buyerEmail`). */
const inputOf = (field: string) => field.replace(/\.(\w)/g, (_m, c: string) => c.toUpperCase());

/**
 * `/<locale>/gift-vouchers` (issue 36 §1): the venue's amounts (or one of the guest's own within its bounds), who it
 * is from and for, a message and the day it is e-mailed; the order is created, then paid through VNPay (the
 * development sandbox here), whose return lands on the payment return page, which shows the order's state.
 */
export function GiftVouchers({ locale }: { locale: Locale }) {
  const w = words(locale);
  useTitle(locale, w.giftTitle);
  const options = useLoad(() => api.GET('/api/public/gift-vouchers/options'), []);
  const [choice, setChoice] = useState<string>('');
  const { busy, failure, alertRef, send } = useSend(locale);
  const errors: Record<string, string> = {};
  for (const field of failure?.problem.fields ?? []) errors[inputOf(field.field)] ??= field.message;
  const today = venueToday();

  async function submit(e: FormEvent<HTMLFormElement>, amounts: number[]) {
    e.preventDefault();
    const form = Object.fromEntries(new FormData(e.currentTarget)) as Record<string, string>;
    const picked = form.amount === 'custom' || amounts.length === 0 ? Number(form.customAmount) : Number(form.amount);
    const body = {
      amountVnd: picked,
      buyer: { name: form.buyerName.trim(), email: form.buyerEmail.trim() },
      recipient: { name: form.recipientName.trim(), email: form.recipientEmail.trim() },
      message: form.message.trim() || null,
      deliveryDate: form.deliveryDate,
      locale,
    };
    const order = await send(() => api.POST('/api/public/gift-vouchers', { body, params: { header: { 'idempotency-key': crypto.randomUUID() } } }));
    if (!order) return;
    rememberGiftOrder(order.reference, order.accessToken);
    const paying = await send(() =>
      api.POST('/api/public/gift-vouchers/orders/{reference}/checkout', {
        params: { path: { reference: order.reference }, header: { 'x-gift-order-token': order.accessToken } },
        body: { method: 'VNPAY', locale: locale === 'vi' ? 'vn' : 'en' },
      }),
    );
    if (paying) window.location.assign(paying.vnpay.paymentUrl);
  }

  return (
    <Await load={options} locale={locale}>
      {(o) => (
        <form onSubmit={(e) => submit(e, o.amountsVnd)} className="panel gift-voucher" aria-labelledby="gift-title" noValidate={false}>
          <h1 id="gift-title">{w.giftTitle}</h1>
          <p className="lead">{w.giftIntro(o.validityMonths)}</p>
          <fieldset className="gift-amounts">
            <legend>{w.giftAmount}</legend>
            {o.amountsVnd.map((amount) => (
              <label key={amount} className="choice" data-amount={amount}>
                <input type="radio" name="amount" value={amount} required checked={choice === String(amount)} onChange={() => setChoice(String(amount))} />
                <span className="choice-text">
                  <span className="choice-title">{vnd(amount, locale)}</span>
                </span>
              </label>
            ))}
            {o.customAmount && o.amountsVnd.length > 0 && (
              <label className="choice" data-amount="custom">
                <input type="radio" name="amount" value="custom" required checked={choice === 'custom'} onChange={() => setChoice('custom')} />
                <span className="choice-text">
                  <span className="choice-title">{w.giftOtherAmount}</span>
                </span>
              </label>
            )}
            {o.customAmount && (choice === 'custom' || o.amountsVnd.length === 0) && (
              <TextField
                label={w.giftOtherAmount}
                hint={w.giftAmountRange(vnd(o.customAmount.minVnd, locale), vnd(o.customAmount.maxVnd, locale))}
                name="customAmount"
                type="number"
                inputMode="numeric"
                min={o.customAmount.minVnd}
                max={o.customAmount.maxVnd}
                step={1000}
                required
                error={errors.amountVnd}
              />
            )}
            {errors.amountVnd && choice !== 'custom' && (
              <p className="field-error" role="alert">
                {errors.amountVnd}
              </p>
            )}
          </fieldset>
          <fieldset>
            <legend>{w.giftFrom}</legend>
            <TextField label={w.fullName} name="buyerName" required autoComplete="name" maxLength={200} error={errors.buyerName} />
            <TextField label={w.email} name="buyerEmail" type="email" required autoComplete="email" maxLength={254} hint={w.giftReceiptHint} error={errors.buyerEmail} />
          </fieldset>
          <fieldset>
            <legend>{w.giftTo}</legend>
            <TextField label={w.giftRecipientName} name="recipientName" required maxLength={200} error={errors.recipientName} />
            <TextField label={w.giftRecipientEmail} name="recipientEmail" type="email" required maxLength={254} error={errors.recipientEmail} />
            <Field label={w.giftMessage} error={errors.message}>
              {(aria) => <textarea {...aria} name="message" rows={4} maxLength={1000} />}
            </Field>
            <TextField label={w.giftDeliveryDate} hint={w.giftDeliveryHint} name="deliveryDate" type="date" required min={today} max={addDays(today, o.maxDeliveryDaysAhead)} defaultValue={today} error={errors.deliveryDate} />
          </fieldset>
          <button type="submit" className="button button-primary" disabled={busy}>
            {busy ? w.sending : w.giftPay}
          </button>
          <div ref={alertRef} tabIndex={-1} className="form-alert">
            {failure && <ProblemNotice locale={locale} error={failure.error} />}
          </div>
        </form>
      )}
    </Await>
  );
}

/** The gift-voucher order VNPay's return was for, read with the token this browser kept. */
export function GiftOrderStatus({ locale, reference }: { locale: Locale; reference: string }) {
  const w = words(locale);
  const token = giftOrderToken(reference);
  const order = useLoad(
    () =>
      token
        ? api.GET('/api/public/gift-vouchers/orders/{reference}', { params: { path: { reference }, header: { 'x-gift-order-token': token } } })
        : Promise.resolve({ data: undefined, error: { status: 404, code: 'not_found' } }),
    [reference, token],
  );
  if (!token) return <p>{w.bookingElsewhere}</p>;
  return (
    <Await load={order} locale={locale}>
      {(o) => (
        <section className="panel gift-order" data-status={o.status}>
          <h2>{w.giftOrderTitle(o.reference)}</h2>
          <p className="gift-order-status">
            {w.giftStatus[o.status]} · {vnd(o.amountVnd, locale)}
          </p>
          {o.status === 'PAID' && <p>{w.giftPaidText(new Intl.DateTimeFormat(locale === 'vi' ? 'vi-VN' : 'en-GB', { dateStyle: 'long', timeZone: 'UTC' }).format(new Date(`${o.deliveryDate}T00:00:00Z`)))}</p>}
          <p>
            <Link className="button button-secondary" href={`/${locale}/gift-vouchers`}>
              {w.giftBuyAnother}
            </Link>
          </p>
        </section>
      )}
    </Await>
  );
}
