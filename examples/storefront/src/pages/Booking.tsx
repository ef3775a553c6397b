import { useEffect, useState } from 'react';
import { booking as guestBooking, bookingToken, problemText, rememberBooking, vnd, when, type Locale, type Schemas } from '../api.ts';

type Reservation = Schemas['GuestReservation'];

/** The token of a booking: the e-mail link's `#token=…` (kept for next time), else the one this browser kept. */
function tokenFor(reference: string): string | undefined {
  const fromLink = new URLSearchParams(window.location.hash.slice(1)).get('token');
  if (fromLink) {
    rememberBooking(reference, fromLink);
    window.history.replaceState(null, '', window.location.pathname);
    return fromLink;
  }
  return bookingToken(reference);
}

/**
 * The guest's booking: status, price and payment summary; checkout while held; the QR once confirmed; cancel while
 * the window is open.
 */
export function Booking({ locale, reference }: { locale: Locale; reference: string }) {
  const [token] = useState(() => tokenFor(reference));
  const [reservation, setReservation] = useState<Reservation>();
  const [error, setError] = useState<string>();
  const client = token ? guestBooking(reference, token) : undefined;

  useEffect(() => {
    client?.get().then(({ data, error }) => (data ? setReservation(data) : setError(problemText(error))));
  }, [reference, token]);

  if (!client) return <p role="alert">Open this booking from the link in your confirmation e-mail.</p>;
  if (error) return <p role="alert">{error}</p>;
  if (!reservation) return <p>…</p>;
  const r = reservation;
  return (
    <section>
      <h1>
        Booking <span className="reference">{r.reference}</span>
      </h1>
      <p>
        <strong className="status" data-status={r.status}>
          {r.status}
        </strong>{' '}
        · {r.event.show.title} · {when(r.event.startsAt, locale)} · {r.offer.name} × {r.guestCount}
      </p>
      <PriceSummary r={r} locale={locale} />
      {r.status === 'HELD' && <Checkout client={client} locale={locale} holdExpiresAt={r.holdExpiresAt} />}
      {(r.status === 'CONFIRMED' || r.status === 'CHECKED_IN') && <Ticket client={client} />}
      {r.canCancel && <Cancel client={client} until={r.cancellableUntil} locale={locale} onCancelled={setReservation} />}
      {r.refunds.length > 0 && (
        <ul className="refunds">
          {r.refunds.map((refund, i) => (
            <li key={i}>
              Refund {vnd(refund.amountVnd, locale)}: {refund.status}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

function PriceSummary({ r, locale }: { r: Reservation; locale: Locale }) {
  const p = r.price;
  const rows: Array<[string, number, string]> = [
    ['Subtotal', p.subtotalVnd, 'subtotal'],
    ...(p.discountVnd ? ([[`Discount${r.attribution.promoCode ? ` (${r.attribution.promoCode})` : ''}`, -p.discountVnd, 'discount']] as Array<[string, number, string]>) : []),
    [`Service charge (${p.serviceChargePercent}%)`, p.serviceChargeVnd, 'service'],
    [`VAT (${p.vatPercent}%)`, p.vatVnd, 'vat'],
    ...(p.voucherCreditVnd ? ([[`Voucher${r.attribution.voucherCode ? ` (${r.attribution.voucherCode})` : ''}`, -p.voucherCreditVnd, 'voucher']] as Array<[string, number, string]>) : []),
    ['Total', p.totalVnd, 'total'],
    ['Paid', r.payment.paidVnd, 'paid'],
    ['Due', r.payment.dueVnd, 'due'],
  ];
  return (
    <table className="summary">
      <tbody>
        {rows.map(([label, amount, key]) => (
          <tr key={key} data-row={key}>
            <th>{label}</th>
            <td>{vnd(amount, locale)}</td>
          </tr>
        ))}
        <tr data-row="payment">
          <th>Payment</th>
          <td className="payment-state">
            {r.payment.state}
            {r.payment.method ? ` (${r.payment.method})` : ''}
          </td>
        </tr>
      </tbody>
    </table>
  );
}

type Client = ReturnType<typeof guestBooking>;

/** Checkout: the enabled methods; VNPay sends the browser to the payment page (the development sandbox under `npm start`). */
function Checkout({ client, locale, holdExpiresAt }: { client: Client; locale: Locale; holdExpiresAt: string | null }) {
  const [options, setOptions] = useState<Schemas['CheckoutOptions']>();
  const [answer, setAnswer] = useState<Schemas['Checkout']>();
  const [error, setError] = useState<string>();
  useEffect(() => {
    client.checkoutOptions().then(({ data, error }) => (data ? setOptions(data) : setError(problemText(error))));
  }, []);
  async function pay(method: Schemas['CheckoutMethod']) {
    const { data, error } = await client.startCheckout({ method, locale: locale === 'vi' ? 'vn' : 'en' });
    if (!data) return setError(problemText(error));
    if (data.vnpay) window.location.assign(data.vnpay.paymentUrl);
    else setAnswer(data);
  }
  if (error) return <p role="alert">{error}</p>;
  if (!options) return null;
  return (
    <div className="checkout">
      <h2>Checkout</h2>
      {holdExpiresAt && <p>Your seats are held until {when(holdExpiresAt, locale)}.</p>}
      <p>
        Amount due: <strong className="due">{vnd(options.amountDueVnd, locale)}</strong>
      </p>
      {options.payable &&
        options.methods.map((method) => (
          <button key={method} onClick={() => pay(method)} data-method={method}>
            {method === 'VNPAY' ? 'Pay with VNPay' : method === 'BANK_TRANSFER' ? 'Bank transfer' : 'Pay at the venue'}
          </button>
        ))}
      {answer?.bankTransfer && (
        <p>
          Transfer {vnd(answer.bankTransfer.amountVnd, locale)} to {answer.bankTransfer.account.accountName}, {answer.bankTransfer.account.bankName}{' '}
          {answer.bankTransfer.account.accountNumber}, reference <code>{answer.bankTransfer.transferReference}</code>.
        </p>
      )}
      {answer?.payAtVenue && <p>{answer.payAtVenue.instructions}</p>}
    </div>
  );
}

/** The check-in QR: fetched with the booking's token (an <img> cannot send the header), shown from a blob URL. */
function Ticket({ client }: { client: Client }) {
  const [src, setSrc] = useState<string>();
  const [error, setError] = useState<string>();
  useEffect(() => {
    let url: string | undefined;
    client.ticket('png').then(({ data, error }) => {
      if (data) setSrc((url = URL.createObjectURL(data as Blob)));
      else setError(problemText(error));
    });
    return () => {
      if (url) URL.revokeObjectURL(url);
    };
  }, []);
  return (
    <div className="ticket">
      <h2>Your ticket</h2>
      {src && <img src={src} alt="Check-in QR code" width={240} height={240} />}
      {error && <p role="alert">{error}</p>}
      <p>Show this code at the door.</p>
    </div>
  );
}

function Cancel({ client, until, locale, onCancelled }: { client: Client; until: string; locale: Locale; onCancelled: (r: Reservation) => void }) {
  const [error, setError] = useState<string>();
  async function cancel() {
    if (!window.confirm('Cancel this booking?')) return;
    const { data, error } = await client.cancel({ reason: 'Cancelled by the guest on the website' });
    if (data) onCancelled(data);
    else setError(problemText(error));
  }
  return (
    <div className="cancel">
      <p>You can cancel until {when(until, locale)}.</p>
      <button onClick={cancel}>Cancel booking</button>
      {error && <p role="alert">{error}</p>}
    </div>
  );
}
