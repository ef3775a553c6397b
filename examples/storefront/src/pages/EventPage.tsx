import { useEffect, useState, type FormEvent } from 'react';
import { isProblem } from '@venue/sdk';
import { api, currentAttribution, problemText, rememberBooking, vnd, when, type Locale, type Schemas } from '../api.ts';
import { t } from '../i18n.ts';
import { Link, navigate } from '../router.tsx';
import { Availability } from './Events.tsx';

/** One performance: its offers with prices, the seats left, and the booking form (or the waiting list when sold out). */
export function EventPage({ locale, slug }: { locale: Locale; slug: string }) {
  const [event, setEvent] = useState<Schemas['PublicShowEvent']>();
  const [error, setError] = useState<string>();
  useEffect(() => {
    api.GET('/api/public/show-events/{slug}', { params: { path: { slug }, query: { locale } } }).then(({ data, error }) => (data ? setEvent(data) : setError(problemText(error))));
  }, [slug, locale]);
  if (error) return <p role="alert">{error}</p>;
  if (!event) return <p>…</p>;
  return (
    <section>
      <h1>{event.show.title}</h1>
      <p>
        {when(event.startsAt, locale)} · <Availability locale={locale} state={event.state} seatsLeft={event.seatsLeft} />
      </p>
      <h2>{t(locale, 'offers')}</h2>
      <ul className="offers">
        {event.offers.map((offer) => (
          <li key={offer.code} data-offer={offer.code}>
            <strong>{offer.name}</strong> — <span className="price">{vnd(offer.perGuest.totalVnd, locale)}</span> {t(locale, 'perGuest')}
            <br />
            <small>{offer.description}</small>
          </li>
        ))}
      </ul>
      {event.state === 'SOLD_OUT' ? (
        <p>
          <Link href={`/${locale}/waitlist?event=${encodeURIComponent(event.slug)}`}>{t(locale, 'joinWaitlist')}</Link>
        </p>
      ) : event.state === 'CLOSED' ? null : (
        <BookingForm locale={locale} event={event} />
      )}
    </section>
  );
}

/** Lead (so the venue can call back) → hold (promo / voucher code, referral attribution) → the booking's page. */
function BookingForm({ locale, event }: { locale: Locale; event: Schemas['PublicShowEvent'] }) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  const attribution = currentAttribution();

  async function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const form = Object.fromEntries(new FormData(e.currentTarget)) as Record<string, string>;
    const guestCount = Number(form.guestCount);
    const contact = { name: form.name, email: form.email, ...(form.phone ? { phone: form.phone } : {}), locale };
    setBusy(true);
    setError(undefined);
    try {
      const lead = await api.POST('/api/reservations/customer-lead', { body: { ...contact, eventSlug: event.slug, guestCount } });
      if (!lead.data) return setError(problemText(lead.error));
      const { data, error } = await api.POST('/api/public/reservations', {
        body: {
          eventSlug: event.slug,
          offerCode: form.offerCode,
          guestCount,
          leadReference: lead.data.leadReference,
          locale,
          ...(form.promoCode ? { promoCode: form.promoCode } : {}),
          ...(form.voucherCode ? { voucherCode: form.voucherCode } : {}),
          ...(attribution ? { referral: { attributionToken: attribution.token } } : {}),
        },
      });
      if (isProblem(error, 'sold_out', 'not_enough_seats')) return setError(`${problemText(error)} — ${t(locale, 'joinWaitlist')}`);
      if (!data) return setError(problemText(error));
      rememberBooking(data.reference, data.accessToken);
      navigate(`/${locale}/booking/${encodeURIComponent(data.reference)}`);
    } finally {
      setBusy(false);
    }
  }

  return (
    <form onSubmit={submit} className="booking">
      <h2>{t(locale, 'book')}</h2>
      {attribution && (
        <p className="attribution">
          {t(locale, 'referredBy')} {attribution.partnerSlug}
        </p>
      )}
      <label>
        {t(locale, 'offers')}{' '}
        <select name="offerCode" defaultValue={event.offers[0]?.code}>
          {event.offers.map((offer) => (
            <option key={offer.code} value={offer.code}>
              {offer.name}
            </option>
          ))}
        </select>
      </label>
      <label>
        {t(locale, 'guests')} <input name="guestCount" type="number" min={1} max={20} defaultValue={2} required />
      </label>
      <label>
        {t(locale, 'name')} <input name="name" required autoComplete="name" />
      </label>
      <label>
        {t(locale, 'email')} <input name="email" type="email" required autoComplete="email" />
      </label>
      <label>
        {t(locale, 'phone')} <input name="phone" type="tel" autoComplete="tel" />
      </label>
      <label>
        {t(locale, 'promoCode')} <input name="promoCode" />
      </label>
      <label>
        {t(locale, 'voucherCode')} <input name="voucherCode" />
      </label>
      <button type="submit" disabled={busy}>
        {t(locale, 'hold')}
      </button>
      {error && <p role="alert">{error}</p>}
    </form>
  );
}
