import { useEffect, useState } from 'react';
import { messageFor } from '@venue/sdk';
import { attempt, booking as guestBooking, bookingToken, rememberBooking, shortWhen, vnd, when, type Schemas } from '../api.ts';
import { words, type CheckoutMethod, type Locale } from '../i18n.ts';
import { Link } from '../router.tsx';
import { Await, Dialog, ProblemNotice, useLoad, useTitle } from '../ui.tsx';

type Reservation = Schemas['GuestReservation'];
type Client = ReturnType<typeof guestBooking>;

/** The token of a booking: the e-mail link's `#token=…` (kept for next time), else the one this browser kept. */
function tokenFor(reference: string): string | undefined {
  const fromLink = new URLSearchParams(window.location.hash.slice(1)).get('token');
  if (fromLink) {
    rememberBooking(reference, fromLink);
    window.history.replaceState(null, '', window.location.pathname + window.location.search);
    return fromLink;
  }
  return bookingToken(reference);
}

/** `/<locale>/booking/<reference>`: the guest's booking. */
export function Booking({ locale, reference }: { locale: Locale; reference: string }) {
  const w = words(locale);
  useTitle(locale, w.bookingTitle);
  const [token] = useState(() => tokenFor(reference));
  if (!token) return <p className="notice notice-info">{w.openFromEmail}</p>;
  return (
    <>
      <h1>{w.bookingTitle}</h1>
      <BookingView locale={locale} reference={reference} token={token} />
    </>
  );
}

/**
 * A booking as its guest manages it: status and payment in words, the price, checkout while held, the QR once
 * confirmed, cancelling while the window is open; after cancelling, the refund and another date.
 */
export function BookingView({ locale, reference, token }: { locale: Locale; reference: string; token: string }) {
  const [client] = useState(() => guestBooking(reference, token));
  const load = useLoad(() => client.get({ locale }), [reference, token, locale]);
  return (
    <Await load={load} locale={locale}>
      {(r) => <BookingDetails locale={locale} r={r} client={client} onChange={(next) => load.state === 'ready' && load.set(next)} onReload={load.retry} />}
    </Await>
  );
}

function BookingDetails({ locale, r, client, onChange, onReload }: { locale: Locale; r: Reservation; client: Client; onChange: (r: Reservation) => void; onReload: () => void }) {
  const w = words(locale);
  const confirmed = r.status === 'CONFIRMED' || r.status === 'CHECKED_IN';
  return (
    <div className="booking-view" data-status={r.status}>
      <section className="panel summary-panel">
        <p className="status-line">
          <span className={`badge badge-${r.status.toLowerCase()}`}>
            <span className="status" data-status={r.status}>
              {w.statusWords[r.status]}
            </span>
          </span>
        </p>
        <dl className="details">
          <div>
            <dt>{w.reference}</dt>
            <dd className="reference" translate="no">
              {r.reference}
            </dd>
          </div>
          <div>
            <dt>{w.show}</dt>
            <dd>{r.event.show.title}</dd>
          </div>
          <div>
            <dt>{w.date}</dt>
            <dd>{when(r.event.startsAt, locale)}</dd>
          </div>
          <div>
            <dt>{w.offer}</dt>
            <dd>
              {r.offer.name}, {w.guestsCount(r.guestCount)}
            </dd>
          </div>
          <div>
            <dt>{w.bookedBy}</dt>
            <dd translate="no">
              {r.contact.name}, {r.contact.email}
            </dd>
          </div>
        </dl>
      </section>
      <PriceSummary r={r} locale={locale} />
      {r.payLater && <PayLater locale={locale} payLater={r.payLater} />}
      {r.status === 'HELD' && <Checkout client={client} locale={locale} r={r} onReload={onReload} />}
      {confirmed && <Ticket client={client} locale={locale} reference={r.reference} />}
      {r.status === 'CANCELLED' && <Cancelled locale={locale} r={r} />}
      {r.status === 'EXPIRED' && (
        <section className="panel expired">
          <p>{w.expiredText}</p>
          <p>
            <Link className="button" href={`/${locale}/shows/${r.event.show.slug}`}>
              {w.bookAgain}
            </Link>
          </p>
        </section>
      )}
      {r.canCancel && <Cancel client={client} until={r.cancellableUntil} locale={locale} onCancelled={onChange} />}
    </div>
  );
}

function PriceSummary({ r, locale }: { r: Reservation; locale: Locale }) {
  const w = words(locale);
  const p = r.price;
  const rows: Array<[string, number, string]> = [
    [`${w.subtotal} (${r.guestCount} × ${vnd(p.pricePerGuestVnd, locale)})`, p.subtotalVnd, 'subtotal'],
    ...(p.discountVnd ? ([[`${w.discount}${r.attribution.promoCode ? ` (${r.attribution.promoCode})` : ''}`, -p.discountVnd, 'discount']] as Array<[string, number, string]>) : []),
    [w.serviceChargePercent(p.serviceChargePercent), p.serviceChargeVnd, 'service'],
    [w.vatPercent(p.vatPercent), p.vatVnd, 'vat'],
    ...(p.voucherCreditVnd ? ([[`${w.voucher}${r.attribution.voucherCode ? ` (${r.attribution.voucherCode})` : ''}`, -p.voucherCreditVnd, 'voucher']] as Array<[string, number, string]>) : []),
    [w.total, p.totalVnd, 'total'],
    [w.paid, r.payment.paidVnd, 'paid'],
    [w.due, r.payment.dueVnd, 'due'],
  ];
  const state = w.paymentWords[r.payment.state];
  return (
    <section className="panel" aria-labelledby="price-title">
      <h2 id="price-title">{w.priceTitle}</h2>
      <table className="summary">
        <tbody>
          {rows.map(([label, amount, key]) => (
            <tr key={key} data-row={key}>
              <th scope="row">{label}</th>
              <td>{vnd(amount, locale)}</td>
            </tr>
          ))}
          <tr data-row="payment">
            <th scope="row">{w.payment}</th>
            <td className="payment-state" data-state={r.payment.state}>
              {r.payment.method ? w.paidWith(state, w.gatewayWords[r.payment.method]) : state}
            </td>
          </tr>
        </tbody>
      </table>
    </section>
  );
}

/**
 * Checkout: the enabled methods, each said in words with what choosing it does to the booking, and the enabled
 * methods this booking may not use, with why (their `code` through messageFor). VNPay sends the browser to the
 * payment page (the development sandbox under `npm start`). Paying later (a bank transfer, at the venue) is then
 * the booking's own state (`payLater`, shown by PayLater): the booking is read again after checkout, and what each
 * method did to the hold is the API's to decide (issue 34 §1).
 */
function Checkout({ client, locale, r, onReload }: { client: Client; locale: Locale; r: Reservation; onReload: () => void }) {
  const w = words(locale);
  const options = useLoad(() => client.checkoutOptions(), [r.reference, r.status, r.payLater?.state]);
  // A booking already waiting for a transfer (or approval) shows its details; the guest may still choose another way.
  const [choosing, setChoosing] = useState(false);
  const [busy, setBusy] = useState<CheckoutMethod>();
  const [error, setError] = useState<unknown>();

  async function pay(method: CheckoutMethod) {
    setBusy(method);
    setError(undefined);
    const started = await attempt(() => client.startCheckout({ method, locale: locale === 'vi' ? 'vn' : 'en' }));
    if (!started.ok) {
      setBusy(undefined);
      return setError(started.error);
    }
    if (started.data.vnpay) return window.location.assign(started.data.vnpay.paymentUrl);
    setBusy(undefined);
    setChoosing(false);
    onReload();
  }

  return (
    <section className="panel checkout" aria-labelledby="checkout-title">
      <h2 id="checkout-title">{w.checkoutTitle}</h2>
      {r.holdExpiresAt && !r.payLater && <p className="held-until">{w.heldUntil(shortWhen(r.holdExpiresAt, locale))}</p>}
      <Await load={options} locale={locale}>
        {(o) =>
          r.payLater && !choosing ? (
            o.payable &&
            o.methods.length > 1 && (
              <button type="button" className="button button-secondary other-method" onClick={() => setChoosing(true)}>
                {w.otherMethod}
              </button>
            )
          ) : (
            <>
              <p>
                {w.amountDue}: <strong className="due">{vnd(o.amountDueVnd, locale)}</strong>
              </p>
              {o.payable && (
                <ul className="methods">
                  {o.methods.map((method) => (
                    <li key={method}>
                      <button type="button" className={`button ${method === 'VNPAY' ? 'button-primary' : 'button-secondary'}`} onClick={() => void pay(method)} data-method={method} disabled={busy !== undefined}>
                        {busy === method && method === 'VNPAY' ? w.goingToVnpay : w.methodWords[method]}
                      </button>
                      <p className="muted">{w.methodNotes[method]}</p>
                      {method === 'PAY_AT_VENUE' && o.payAtVenue && (
                        <p className="muted method-effect" data-outcome={o.payAtVenue.outcome}>
                          {o.payAtVenue.outcome === 'CONFIRMED' || !o.payAtVenue.payBy ? w.payAtVenueWouldConfirm : w.payAtVenueWouldWait(shortWhen(o.payAtVenue.payBy, locale))}
                        </p>
                      )}
                      {method === 'BANK_TRANSFER' && o.bankTransfer?.payBy && <p className="muted method-effect">{w.transferWouldHold(shortWhen(o.bankTransfer.payBy, locale))}</p>}
                    </li>
                  ))}
                </ul>
              )}
              {o.unavailable.length > 0 && (
                <ul className="unavailable-methods">
                  {o.unavailable.map((u) => (
                    <li key={u.method} data-method={u.method} data-code={u.code}>
                      <strong>{w.methodUnavailable(w.methodWords[u.method])}</strong> {messageFor({ status: 422, code: u.code }, locale)}
                    </li>
                  ))}
                </ul>
              )}
            </>
          )
        }
      </Await>
      {error !== undefined && <ProblemNotice locale={locale} error={error} />}
    </section>
  );
}

/**
 * Paying later, as the booking now is (issue 34 §1): confirmed with the amount due at the door; held for the venue's
 * approval until its deadline; or held for a bank transfer, with the account, the reference to quote, the amount and
 * the deadline. The venue's instructions carry their own language (`instructionsLocale`), which may differ from the page's.
 */
function PayLater({ locale, payLater }: { locale: Locale; payLater: NonNullable<Reservation['payLater']> }) {
  const w = words(locale);
  const instructions = (
    <p className="pay-later-instructions" lang={payLater.instructionsLocale}>
      {payLater.instructions}
    </p>
  );
  if (payLater.state === 'AWAITING_TRANSFER') {
    return (
      <section className="panel pay-later" data-state={payLater.state} aria-labelledby="pay-later-title">
        <h2 id="pay-later-title">{w.bankTitle}</h2>
        {instructions}
        {payLater.bankTransfer && (
          <dl className="details bank-details">
            <div>
              <dt>{w.accountName}</dt>
              <dd translate="no">{payLater.bankTransfer.account.accountName}</dd>
            </div>
            <div>
              <dt>{w.accountNumber}</dt>
              <dd className="account-number" translate="no">
                {payLater.bankTransfer.account.accountNumber}
              </dd>
            </div>
            <div>
              <dt>{w.bank}</dt>
              <dd translate="no">{payLater.bankTransfer.account.bankName}</dd>
            </div>
            <div>
              <dt>{w.amount}</dt>
              <dd className="amount-due">{vnd(payLater.amountDueVnd, locale)}</dd>
            </div>
            <div>
              <dt>{w.transferDescription}</dt>
              <dd>
                <code className="transfer-reference" translate="no">
                  {payLater.bankTransfer.transferReference}
                </code>
              </dd>
            </div>
          </dl>
        )}
        {payLater.deadline && <p className="deadline">{w.transferBefore(shortWhen(payLater.deadline, locale))}</p>}
        <p>{w.transferNext}</p>
      </section>
    );
  }
  if (payLater.state === 'AWAITING_APPROVAL') {
    return (
      <section className="panel pay-later" data-state={payLater.state} aria-labelledby="pay-later-title">
        <h2 id="pay-later-title">{w.approvalTitle}</h2>
        {payLater.deadline && <p className="deadline">{w.approvalUntil(shortWhen(payLater.deadline, locale))}</p>}
        {instructions}
        <p className="amount-due">{w.dueAtDoor(vnd(payLater.amountDueVnd, locale))}</p>
      </section>
    );
  }
  return (
    <section className="panel pay-later" data-state={payLater.state} aria-labelledby="pay-later-title">
      <h2 id="pay-later-title">{w.venueTitle}</h2>
      <p>{w.confirmedPayAtDoor}</p>
      {instructions}
      <p className="amount-due">{w.dueAtDoor(vnd(payLater.amountDueVnd, locale))}</p>
    </section>
  );
}

/** The check-in QR: fetched with the booking's token (an <img> cannot send the header), shown from a blob URL. */
function Ticket({ client, locale, reference }: { client: Client; locale: Locale; reference: string }) {
  const w = words(locale);
  const [src, setSrc] = useState<string>();
  const [error, setError] = useState<unknown>();
  const [round, setRound] = useState(0);
  useEffect(() => {
    let url: string | undefined;
    let live = true;
    setError(undefined);
    void attempt(() => client.ticket('png')).then((answer) => {
      if (!live) return;
      if (answer.ok) setSrc((url = URL.createObjectURL(answer.data as Blob)));
      else setError(answer.error);
    });
    return () => {
      live = false;
      if (url) URL.revokeObjectURL(url);
    };
  }, [round]);
  return (
    <section className="panel ticket" aria-labelledby="ticket-title">
      <h2 id="ticket-title">{w.ticketTitle}</h2>
      {src && <img src={src} alt={w.ticketAlt(reference)} width={240} height={240} />}
      {error !== undefined && <ProblemNotice locale={locale} error={error} onRetry={() => setRound((n) => n + 1)} />}
      <p>{w.ticketNote}</p>
    </section>
  );
}

/** Cancelling, behind a dialog that says what happens to the seats and the money. */
function Cancel({ client, until, locale, onCancelled }: { client: Client; until: string; locale: Locale; onCancelled: (r: Reservation) => void }) {
  const w = words(locale);
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>();
  async function cancel() {
    setBusy(true);
    setError(undefined);
    const answer = await attempt(() => client.cancel({ reason: 'Cancelled by the guest on the website' }));
    setBusy(false);
    if (!answer.ok) return setError(answer.error);
    setOpen(false);
    onCancelled(answer.data);
  }
  return (
    <section className="panel cancel">
      <p>{w.cancelUntil(shortWhen(until, locale))}</p>
      <button type="button" className="button button-danger cancel-open" onClick={() => setOpen(true)}>
        {w.cancelBooking}
      </button>
      <Dialog open={open} title={w.cancelDialogTitle} onClose={() => setOpen(false)}>
        <p>{w.cancelDialogText}</p>
        {error !== undefined && <ProblemNotice locale={locale} error={error} />}
        <div className="dialog-actions">
          <button type="button" className="button button-secondary cancel-keep" onClick={() => setOpen(false)} autoFocus>
            {w.cancelKeep}
          </button>
          <button type="button" className="button button-danger cancel-confirm" onClick={() => void cancel()} disabled={busy}>
            {busy ? w.cancelling : w.cancelConfirm}
          </button>
        </div>
      </Dialog>
    </section>
  );
}

/** After cancelling: the refund and its state, or that nothing was paid; and another date of the same show. */
function Cancelled({ locale, r }: { locale: Locale; r: Reservation }) {
  const w = words(locale);
  return (
    <section className="panel cancelled" aria-labelledby="cancelled-title">
      <h2 id="cancelled-title">{w.cancelledTitle}</h2>
      {r.refunds.length > 0 ? (
        <>
          <h3>{w.refundsTitle}</h3>
          <ul className="refunds">
            {r.refunds.map((refund, i) => (
              <li key={i} data-status={refund.status}>
                {w.refundLine(vnd(refund.amountVnd, locale), w.refundWords[refund.status])}
              </li>
            ))}
          </ul>
          <p className="muted">{w.refundTiming}</p>
        </>
      ) : (
        r.payment.paidVnd === 0 && <p>{w.nothingToRefund}</p>
      )}
      <p>
        <Link className="button another-date" href={`/${locale}/shows/${r.event.show.slug}`}>
          {w.bookAnotherDate(r.event.show.title)}
        </Link>
      </p>
    </section>
  );
}
