import { api, bookingToken } from '../api.ts';
import { words, type Locale } from '../i18n.ts';
import { Await, useLoad, useTitle } from '../ui.tsx';
import { BookingView } from './Booking.tsx';
import { GiftOrderStatus } from './GiftVouchers.tsx';

/**
 * Where VNPay's browser return lands (the API sends it on here with the signed query): the query is forwarded to
 * the API, which verifies it and answers our record of the payment; the IPN has already settled it. Then the
 * booking itself, as its page shows it (issue 34 §3: after payment the return page shows the booking).
 */
export function PaymentReturn({ locale }: { locale: Locale }) {
  const w = words(locale);
  const query = Object.fromEntries(new URLSearchParams(window.location.search));
  const result = useLoad(() => api.GET('/api/payments/vnpay/return', { params: { query } }), [window.location.search]);
  useTitle(locale, result.state === 'ready' && result.data.valid && result.data.paymentStatus === 'SUCCEEDED' ? w.paymentReceived : w.checkingPayment);
  return (
    <Await load={result} locale={locale}>
      {(r) => {
        const paid = r.valid && r.paymentStatus === 'SUCCEEDED';
        const reference = r.reservationReference;
        // A gift-voucher order's reference (`GO-…`): its own state, read with the token this browser kept.
        const gift = reference?.startsWith('GO-') ? reference : undefined;
        const token = reference && !gift ? bookingToken(reference) : undefined;
        return (
          <>
            <section className={`notice ${paid ? 'notice-success' : 'notice-problem'}`}>
              <h1 className="payment-result" data-paid={paid}>
                {!r.valid ? w.paymentUnverified : paid ? w.paymentReceived : w.paymentFailed}
              </h1>
              {paid && !gift && <p>{w.confirmationSent}</p>}
              {r.valid && !paid && (
                <p>
                  {w.paymentFailedNote} {r.responseCode ? w.paymentCode(r.responseCode) : ''}
                </p>
              )}
            </section>
            {gift ? <GiftOrderStatus locale={locale} reference={gift} /> : reference && token ? <BookingView locale={locale} reference={reference} token={token} /> : reference && <p>{w.bookingElsewhere}</p>}
          </>
        );
      }}
    </Await>
  );
}
