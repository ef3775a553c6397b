import { useEffect, useState } from 'react';
import { api, bookingToken, problemText, type Locale, type Schemas } from '../api.ts';
import { Link } from '../router.tsx';

/**
 * Where VNPay's browser return lands (the API sends it on here with the signed query): the query is forwarded to
 * the API, which verifies it and answers our record of the payment; the IPN has already settled it.
 */
export function PaymentReturn({ locale }: { locale: Locale }) {
  const [result, setResult] = useState<Schemas['VnpayReturnResult']>();
  const [error, setError] = useState<string>();
  useEffect(() => {
    const query = Object.fromEntries(new URLSearchParams(window.location.search));
    api.GET('/api/payments/vnpay/return', { params: { query } }).then(({ data, error }) => (data ? setResult(data) : setError(problemText(error))));
  }, []);
  if (error) return <p role="alert">{error}</p>;
  if (!result) return <p>Checking your payment…</p>;
  const paid = result.valid && result.paymentStatus === 'SUCCEEDED';
  const reference = result.reservationReference;
  return (
    <section>
      <h1 className="payment-result" data-paid={paid}>
        {!result.valid ? 'This payment answer could not be verified' : paid ? 'Payment received' : 'The payment did not go through'}
      </h1>
      {result.valid && !paid && <p>VNPay answered code {result.responseCode}. Your seats stay held: you can try again.</p>}
      {reference && bookingToken(reference) && (
        <p>
          <Link href={`/${locale}/booking/${encodeURIComponent(reference)}`}>{paid ? 'See your booking and ticket' : 'Back to your booking'}</Link>
        </p>
      )}
    </section>
  );
}
