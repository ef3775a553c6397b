import { isProblem } from '@venue/sdk';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { api, attempt, currentAttribution, rememberBooking, shortWhen, vnd, when, type Schemas } from '../api.ts';
import { words, type Locale } from '../i18n.ts';
import { Link, navigate } from '../router.tsx';
import { Await, Field, formProblem, ProblemNotice, TextField, useLoad, useTitle, type FormProblem } from '../ui.tsx';
import { Availability } from './Programme.tsx';

type PublicEvent = Schemas['PublicShowEvent'];
type Offer = Schemas['PublicOffer'];

/** `/<locale>/book/<slug>`: one performance: its offers with their limits, the seats left, and the booking form. */
export function EventPage({ locale, slug }: { locale: Locale; slug: string }) {
  const w = words(locale);
  const event = useLoad(() => api.GET('/api/public/show-events/{slug}', { params: { path: { slug }, query: { locale } } }), [slug, locale]);
  useTitle(locale, event.state === 'ready' ? event.data.show.title : undefined);
  return (
    <Await load={event} locale={locale}>
      {(e) => (
        <>
          <EventHeader locale={locale} event={e} />
          {e.cancelled ? (
            <Closed locale={locale} event={e} text={w.cancelledText} />
          ) : e.state === 'SOLD_OUT' ? (
            <div className="notice notice-info sold-out">
              <p>{w.soldOutText}</p>
              <p className="actions">
                <Link className="button" href={`/${locale}/waitlist?event=${encodeURIComponent(e.slug)}`}>
                  {w.joinWaitlist}
                </Link>
                <Link className="button button-secondary" href={`/${locale}/shows/${e.show.slug}`}>
                  {w.chooseAnotherDate}
                </Link>
              </p>
            </div>
          ) : e.state === 'CLOSED' ? (
            <Closed locale={locale} event={e} text={w.closedText} />
          ) : (
            <BookingForm locale={locale} event={e} />
          )}
        </>
      )}
    </Await>
  );
}

export function EventHeader({ locale, event, title }: { locale: Locale; event: PublicEvent; title?: string }) {
  const w = words(locale);
  return (
    <section className="event-header">
      <div>
        <h1>{title ?? event.show.title}</h1>
        <p className="when">{when(event.startsAt, locale)}</p>
        <dl className="facts">
          <div>
            <dt>{w.duration}</dt>
            <dd>{w.minutes(event.show.durationMinutes)}</dd>
          </div>
          <div>
            <dt>{w.ageRuleTitle}</dt>
            <dd className="age-rule">{w.ageRule(event.show.minimumAge)}</dd>
          </div>
          {event.doorsAt && (
            <div>
              <dt>{w.doorsOpen}</dt>
              <dd>{shortWhen(event.doorsAt, locale)}</dd>
            </div>
          )}
          <div>
            <dt>{w.status}</dt>
            <dd>
              <Availability locale={locale} state={event.state} seatsLeft={event.seatsLeft} cancelled={event.cancelled} />
            </dd>
          </div>
        </dl>
        <p>
          <Link href={`/${locale}/shows/${event.show.slug}`}>{w.allDates}</Link>
        </p>
      </div>
    </section>
  );
}

function Closed({ locale, event, text }: { locale: Locale; event: PublicEvent; text: string }) {
  const w = words(locale);
  return (
    <div className="notice notice-info closed">
      <p>{text}</p>
      <p>
        <Link className="button" href={`/${locale}/shows/${event.show.slug}`}>
          {w.chooseAnotherDate}
        </Link>
      </p>
    </div>
  );
}

/** The offers a party of `guests` may book: inside the offer's limits, and (unless seats are held for it) the seats left. */
function fits(offer: Offer, guests: number, seatsLeft: number | null): boolean {
  return guests >= offer.minGuests && guests <= offer.maxGuests && (seatsLeft === null || guests <= seatsLeft);
}

/** The party's total from the API's quote (`quoteReservation`, issue 34 §3): the price the hold would charge now. */
type Quote = { state: 'idle' } | { state: 'loading' } | { state: 'ready'; price: Schemas['ReservationPrice'] } | { state: 'failed'; error: unknown };
function useQuote(eventSlug: string, offerCode: string | undefined, guests: number, promoCode?: string, referral?: { code?: string; attributionToken?: string }): Quote {
  const [quote, setQuote] = useState<Quote>({ state: 'idle' });
  const referralKey = JSON.stringify(referral ?? null);
  useEffect(() => {
    if (!offerCode || !guests) return setQuote({ state: 'idle' });
    let live = true;
    setQuote({ state: 'loading' });
    // A short pause: a guest pressing "+" three times asks once.
    const timer = setTimeout(async () => {
      const answer = await attempt(() =>
        api.POST('/api/public/quotes', {
          body: { eventSlug, offerCode, guestCount: guests, ...(promoCode ? { promoCode } : {}), ...(referral && (referral.code || referral.attributionToken) ? { referral } : {}) },
        }),
      );
      if (!live) return;
      // A failed quote is said (messageFor), never replaced by an estimate: the page shows only the API's prices.
      setQuote(answer.ok ? { state: 'ready', price: answer.data.price } : { state: 'failed', error: answer.error });
    }, 250);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [eventSlug, offerCode, guests, promoCode, referralKey]);
  return quote;
}

/**
 * The booking form: guests first (bounded by the offers' limits and the seats left), then the offers that take that
 * party (the others shown, not offered, with their limits), the party's total from the API, the contact, codes.
 * Submitting sends the lead (so the venue can call back), then the hold, and opens the booking's page.
 * `waitlistToken` books the seats a waiting-list offer holds (their count is not in the public availability).
 */
export function BookingForm({ locale, event, waitlistToken }: { locale: Locale; event: PublicEvent; waitlistToken?: string }) {
  const w = words(locale);
  const attribution = currentAttribution();
  const seatsLeft = waitlistToken ? null : event.seatsLeft;
  const offers = event.offers;
  const minGuests = Math.min(...offers.map((o) => o.minGuests));
  const maxGuests = Math.max(1, Math.min(Math.max(...offers.map((o) => o.maxGuests)), seatsLeft ?? Infinity));
  const [guests, setGuests] = useState(() => Math.min(Math.max(2, minGuests), maxGuests));
  const [offerCode, setOfferCode] = useState<string | undefined>(() => offers.find((o) => fits(o, Math.min(Math.max(2, minGuests), maxGuests), seatsLeft))?.code);
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<FormProblem & { error: unknown }>();
  const alertRef = useRef<HTMLDivElement>(null);
  const offer = offers.find((o) => o.code === offerCode);
  const quote = useQuote(event.slug, offer?.code, guests, undefined, attribution ? { attributionToken: attribution.token } : undefined);

  // The chosen offer must take the party: when the count leaves its limits, the first offer that takes it is chosen.
  function changeGuests(next: number) {
    const count = Math.min(Math.max(Number.isFinite(next) ? Math.round(next) : minGuests, minGuests), maxGuests);
    setGuests(count);
    if (!offer || !fits(offer, count, seatsLeft)) setOfferCode(offers.find((o) => fits(o, count, seatsLeft))?.code);
  }

  async function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    if (!offer) return;
    const form = Object.fromEntries(new FormData(e.currentTarget)) as Record<string, string>;
    const contact = { name: form.name.trim(), email: form.email.trim(), ...(form.phone?.trim() ? { phone: form.phone.trim() } : {}), locale };
    setBusy(true);
    setFailure(undefined);
    const fail = (error: unknown) => {
      setFailure({ ...formProblem(error, locale), error });
      setTimeout(() => alertRef.current?.focus(), 0);
    };
    try {
      const lead = await attempt(() => api.POST('/api/reservations/customer-lead', { body: { ...contact, eventSlug: event.slug, guestCount: guests } }));
      if (!lead.ok) return fail(lead.error);
      const hold = await attempt(() =>
        api.POST('/api/public/reservations', {
          body: {
            eventSlug: event.slug,
            offerCode: offer.code,
            guestCount: guests,
            leadReference: lead.data.leadReference,
            locale,
            ...(form.customerNote?.trim() ? { customerNote: form.customerNote.trim() } : {}),
            ...(form.promoCode?.trim() ? { promoCode: form.promoCode.trim() } : {}),
            ...(form.voucherCode?.trim() ? { voucherCode: form.voucherCode.trim() } : {}),
            ...(waitlistToken ? { waitlistToken } : {}),
            ...(attribution ? { referral: { attributionToken: attribution.token } } : {}),
          },
        }),
      );
      if (!hold.ok) return fail(hold.error);
      rememberBooking(hold.data.reference, hold.data.accessToken);
      navigate(`/${locale}/booking/${encodeURIComponent(hold.data.reference)}`);
    } finally {
      setBusy(false);
    }
  }

  const err = failure?.byInput ?? {};
  const soldOut = isProblem(failure?.error, 'sold_out', 'not_enough_seats');
  return (
    <form onSubmit={submit} className="booking panel" noValidate={false} aria-labelledby="book-title">
      <h2 id="book-title">{waitlistToken ? w.claimSeats : w.bookTitle}</h2>
      {attribution && <p className="attribution">{w.referredBy(attribution.partnerSlug)}</p>}

      <fieldset>
        <legend>{w.stepGuests}</legend>
        <Field label={w.guests} hint={w.guestsRange(minGuests, maxGuests)} error={err.guestCount}>
          {(aria) => (
            <div className="stepper">
              <button type="button" className="button button-secondary" onClick={() => changeGuests(guests - 1)} disabled={guests <= minGuests} aria-label={w.fewerGuests}>
                <span aria-hidden="true">−</span>
              </button>
              <input {...aria} name="guestCount" type="number" inputMode="numeric" min={minGuests} max={maxGuests} value={guests} onChange={(e) => changeGuests(Number(e.target.value))} required />
              <button type="button" className="button button-secondary" onClick={() => changeGuests(guests + 1)} disabled={guests >= maxGuests} aria-label={w.moreGuests}>
                <span aria-hidden="true">+</span>
              </button>
            </div>
          )}
        </Field>
      </fieldset>

      <fieldset className="offer-choice">
        <legend>{w.stepOffer}</legend>
        {offers.map((o) => {
          const takes = fits(o, guests, seatsLeft);
          const noSeats = seatsLeft !== null && o.minGuests > seatsLeft;
          return (
            <label key={o.code} className={`choice${takes ? '' : ' choice-disabled'}`} data-offer={o.code} data-offered={takes ? 'true' : 'false'}>
              <input type="radio" name="offerCode" value={o.code} checked={offerCode === o.code} disabled={!takes} onChange={() => setOfferCode(o.code)} />
              <span className="choice-text">
                <span className="choice-title">{o.name}</span>
                <span className="price">
                  {vnd(o.perGuest.totalVnd, locale)} <span className="muted">{w.perGuestIncluded}</span>
                </span>
                <span className="limits">{takes ? w.partyLimits(o.minGuests, o.maxGuests) : noSeats ? w.offerNoSeats : w.offerNotForParty(o.minGuests, o.maxGuests)}</span>
                {o.description && <span className="muted">{o.description}</span>}
                {o.items.length > 0 && (
                  <span className="includes muted">
                    {w.includes}: {o.items.map((item) => item.name).join(', ')}
                  </span>
                )}
              </span>
            </label>
          );
        })}
        {!offer && (
          <p className="notice notice-info no-offer">
            {w.noOfferFits(guests)} <Link href={`/${locale}/inquiries`}>{w.groupRequest}</Link>
          </p>
        )}
        {err.offerCode && <p className="field-error">{err.offerCode}</p>}
      </fieldset>

      {offer && <Total locale={locale} offer={offer} guests={guests} quote={quote} />}

      <fieldset>
        <legend>{w.stepDetails}</legend>
        <TextField label={w.fullName} name="name" required autoComplete="name" maxLength={200} error={err.name} />
        <TextField label={w.email} name="email" type="email" required autoComplete="email" maxLength={254} error={err.email} />
        <TextField label={w.phoneOptional} name="phone" type="tel" autoComplete="tel" maxLength={40} error={err.phone} />
        <Field label={w.noteOptional} error={err.customerNote}>
          {(aria) => <textarea {...aria} name="customerNote" rows={2} maxLength={2000} />}
        </Field>
        <details className="codes" open={Boolean(err.promoCode || err.voucherCode)}>
          <summary>{w.haveCode}</summary>
          <TextField label={w.promoCode} name="promoCode" autoComplete="off" maxLength={40} error={err.promoCode} />
          <TextField label={w.voucherCode} name="voucherCode" autoComplete="off" maxLength={40} error={err.voucherCode} />
        </details>
      </fieldset>

      <p className="muted">{w.holdNote}</p>
      <button type="submit" className="button button-primary hold" disabled={busy || !offer}>
        {busy ? w.holding : w.holdSeats}
      </button>
      <div ref={alertRef} tabIndex={-1} className="form-alert">
        {failure && (
          <ProblemNotice locale={locale} error={failure.error}>
            {soldOut && (
              <p>
                <Link className="button button-secondary" href={`/${locale}/waitlist?event=${encodeURIComponent(event.slug)}`}>
                  {w.joinWaitlist}
                </Link>
              </p>
            )}
          </ProblemNotice>
        )}
      </div>
    </form>
  );
}

/** The party's total before the hold: the API's quote for the party, or why there is none (never an estimate). */
function Total({ locale, offer, guests, quote }: { locale: Locale; offer: Offer; guests: number; quote: Quote }) {
  const w = words(locale);
  return (
    <section className="total panel-inset" aria-labelledby="total-title" aria-live="polite" data-state={quote.state}>
      <h3 id="total-title">{w.totalTitle}</h3>
      <p className="muted">{w.totalFor(guests, offer.name)}</p>
      {quote.state === 'ready' ? (
        <table className="summary">
          <tbody>
            <tr data-row="subtotal">
              <th scope="row">
                {w.subtotal} <span className="muted">({guests} × {vnd(quote.price.pricePerGuestVnd, locale)})</span>
              </th>
              <td>{vnd(quote.price.subtotalVnd, locale)}</td>
            </tr>
            {quote.price.discountVnd > 0 && (
              <tr data-row="discount">
                <th scope="row">{w.discount}</th>
                <td>{vnd(-quote.price.discountVnd, locale)}</td>
              </tr>
            )}
            <tr data-row="service">
              <th scope="row">{w.serviceCharge}</th>
              <td>{vnd(quote.price.serviceChargeVnd, locale)}</td>
            </tr>
            <tr data-row="vat">
              <th scope="row">{w.vat}</th>
              <td>{vnd(quote.price.vatVnd, locale)}</td>
            </tr>
            <tr data-row="total">
              <th scope="row">{w.total}</th>
              <td className="quote-total">{vnd(quote.price.totalVnd, locale)}</td>
            </tr>
          </tbody>
        </table>
      ) : quote.state === 'failed' ? (
        <ProblemNotice locale={locale} error={quote.error} />
      ) : (
        <p className="muted">{w.totalUpdating}</p>
      )}
      <p className="muted small">{w.codesLater}</p>
    </section>
  );
}
