import { useEffect, useState } from 'react';
import { api, problemText, vnd, when, type Locale, type Schemas } from '../api.ts';
import { t } from '../i18n.ts';
import { Link } from '../router.tsx';

type Page = Schemas['PublicShowEventPage'];

/** Upcoming performances (all shows, or one show's), with each one's state and its cheapest offer. */
export function Events({ locale, show }: { locale: Locale; show?: string }) {
  const [page, setPage] = useState<Page>();
  const [error, setError] = useState<string>();
  useEffect(() => {
    setPage(undefined);
    api.GET('/api/public/show-events', { params: { query: { locale, limit: 50, ...(show ? { show } : {}) } } }).then(({ data, error }) => (data ? setPage(data) : setError(problemText(error))));
  }, [locale, show]);
  if (error) return <p role="alert">{error}</p>;
  if (!page) return <p>…</p>;
  const offers = new Map(page.offers.map((offer) => [offer.code, offer]));
  return (
    <section>
      <h1>{show && page.items[0] ? page.items[0].show.title : t(locale, 'upcoming')}</h1>
      <ul className="events">
        {page.items.map((event) => {
          const prices = event.offerCodes.map((code) => offers.get(code)?.perGuest.totalVnd).filter((p): p is number => p !== undefined);
          return (
            <li key={event.slug} data-event={event.slug} data-state={event.state}>
              <Link href={`/${locale}/book/${event.slug}`}>
                <strong>{event.show.title}</strong> — {when(event.startsAt, locale)}
              </Link>{' '}
              <Availability locale={locale} state={event.state} seatsLeft={event.seatsLeft} />
              {prices.length > 0 && (
                <span className="price">
                  {' '}
                  {t(locale, 'from')} {vnd(Math.min(...prices), locale)}
                </span>
              )}
            </li>
          );
        })}
      </ul>
    </section>
  );
}

export function Availability({ locale, state, seatsLeft }: { locale: Locale; state: Schemas['AvailabilityState']; seatsLeft: number | null }) {
  const text = state === 'AVAILABLE' ? `${seatsLeft} ${t(locale, 'seatsLeft')}` : state === 'LIMITED' ? t(locale, 'fewSeats') : state === 'SOLD_OUT' ? t(locale, 'soldOut') : t(locale, 'closed');
  return <span className={`state state-${state}`}>{text}</span>;
}
