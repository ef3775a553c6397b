import { useEffect, useState } from 'react';
import { api, apiUrl, attempt, dayLabel, monthLabel, venueToday, vnd, type Schemas } from '../api.ts';
import { words, type Locale } from '../i18n.ts';
import { Link } from '../router.tsx';
import { Await, Loading, ProblemNotice, useLoad, useTitle } from '../ui.tsx';

type ListedEvent = Schemas['PublicListedEvent'];
type EventPage = Schemas['PublicShowEventPage'];

/** `/<locale>` and `/<locale>/shows`: the shows, then the whole calendar month by month (issue 34 §3). */
export function Programme({ locale }: { locale: Locale }) {
  const w = words(locale);
  useTitle(locale, w.whatsOnTitle);
  const shows = useLoad(() => api.GET('/api/public/shows', { params: { query: { locale, limit: 50 } } }), [locale]);
  return (
    <>
      <section className="hero">
        <h1>{w.whatsOnTitle}</h1>
        <p className="lead">{w.whatsOnIntro}</p>
      </section>
      <section aria-labelledby="shows-title">
        <h2 id="shows-title">{w.ourShows}</h2>
        <Await load={shows} locale={locale}>
          {(page) => (
            <ul className="cards shows">
              {page.items.map((show) => (
                <li key={show.slug} className="card show-card" data-show={show.slug}>
                  <ShowImage locale={locale} title={show.title} urls={show.imageUrls} />
                  <div className="card-body">
                    <h3>
                      <Link href={`/${locale}/shows/${show.slug}`}>{show.title}</Link>
                    </h3>
                    <p>{show.summary}</p>
                    <p className="meta">
                      <span>{w.minutes(show.durationMinutes)}</span>
                      <span className="age-rule">{w.ageRule(show.minimumAge)}</span>
                      {show.priceFrom && <span className="price">{w.priceFrom(vnd(show.priceFrom.totalVnd, locale))}</span>}
                    </p>
                  </div>
                </li>
              ))}
            </ul>
          )}
        </Await>
      </section>
      <Calendar locale={locale} title={w.calendar} />
    </>
  );
}

/** `/<locale>/shows/<slug>`: a show's page: image, description, duration, age rule, offers with their party limits, its calendar. */
export function ShowPage({ locale, slug }: { locale: Locale; slug: string }) {
  const w = words(locale);
  const show = useLoad(() => api.GET('/api/public/shows/{slug}', { params: { path: { slug }, query: { locale } } }), [slug, locale]);
  useTitle(locale, show.state === 'ready' ? show.data.title : undefined);
  return (
    <Await load={show} locale={locale}>
      {(s) => (
        <>
          <section className="show-header">
            <ShowImage locale={locale} title={s.title} urls={s.imageUrls} large />
            <div>
              <h1>{s.title}</h1>
              <p className="lead">{s.summary}</p>
              <dl className="facts">
                <div>
                  <dt>{w.duration}</dt>
                  <dd>{w.minutes(s.durationMinutes)}</dd>
                </div>
                <div>
                  <dt>{w.ageRuleTitle}</dt>
                  <dd className="age-rule">{w.ageRule(s.minimumAge)}</dd>
                </div>
                {s.priceFrom && (
                  <div>
                    <dt>{w.offersTitle}</dt>
                    <dd className="price">{w.priceFrom(vnd(s.priceFrom.totalVnd, locale))}</dd>
                  </div>
                )}
              </dl>
            </div>
          </section>
          <section aria-labelledby="about-title">
            <h2 id="about-title">{w.aboutShow}</h2>
            <p className="description">{s.description}</p>
          </section>
          {s.offers.length > 0 && (
            <section aria-labelledby="offers-title">
              <h2 id="offers-title">{w.offersTitle}</h2>
              <OfferList locale={locale} offers={s.offers} />
            </section>
          )}
          <Calendar locale={locale} show={s.slug} title={w.calendarOf(s.title)} />
        </>
      )}
    </Await>
  );
}

/** The offers of a show or a performance, with their price per guest and party limits. */
export function OfferList({ locale, offers }: { locale: Locale; offers: Schemas['PublicOffer'][] }) {
  const w = words(locale);
  return (
    <ul className="cards offers">
      {offers.map((offer) => (
        <li key={offer.code} className="card offer-card" data-offer={offer.code}>
          <div className="card-body">
            <h3>{offer.name}</h3>
            <p>
              <span className="price">{vnd(offer.perGuest.totalVnd, locale)}</span> <span className="muted">{w.perGuestIncluded}</span>
            </p>
            <p className="limits" data-min={offer.minGuests} data-max={offer.maxGuests}>
              {w.partyLimits(offer.minGuests, offer.maxGuests)}
            </p>
            {offer.description && <p className="muted">{offer.description}</p>}
            {offer.items.length > 0 && (
              <p className="includes">
                <span className="muted">{w.includes}:</span> {offer.items.map((item) => item.name).join(', ')}
              </p>
            )}
          </div>
        </li>
      ))}
    </ul>
  );
}

/** A show's first image, or a drawn placeholder (decorative: the title is beside it). */
export function ShowImage({ locale, title, urls, large }: { locale: Locale; title: string; urls: string[]; large?: boolean }) {
  const [broken, setBroken] = useState(false);
  const className = `show-image${large ? ' show-image-large' : ''}`;
  if (urls.length && !broken) return <img className={className} src={apiUrl(urls[0])} alt={title} loading="lazy" onError={() => setBroken(true)} />;
  return (
    <div className={`${className} show-image-placeholder`} role="img" aria-label={`${title}: ${words(locale).noImage}`}>
      <span aria-hidden="true">{title.slice(0, 1)}</span>
    </div>
  );
}

export function Availability({ locale, state, seatsLeft, cancelled }: { locale: Locale; state: Schemas['AvailabilityState']; seatsLeft: number | null; cancelled?: boolean }) {
  const w = words(locale);
  const text = cancelled ? w.cancelledPerformance : state === 'AVAILABLE' && seatsLeft ? w.seatsLeft(seatsLeft) : state === 'AVAILABLE' || state === 'LIMITED' ? w.fewSeats : state === 'SOLD_OUT' ? w.soldOut : w.bookingClosed;
  return (
    <span className={`state state-${state.toLowerCase()}`} data-state={state}>
      {text}
    </span>
  );
}

const addMonths = (month: string, n: number) => {
  const [y, m] = month.split('-').map(Number);
  const d = new Date(Date.UTC(y, m - 1 + n, 1));
  return d.toISOString().slice(0, 7);
};
const lastDay = (month: string) => {
  const [y, m] = month.split('-').map(Number);
  return new Date(Date.UTC(y, m, 0)).toISOString().slice(0, 10);
};
/** How far ahead the month navigation goes (the API publishes performances well inside a year). */
const MONTHS_AHEAD = 12;
const PAGE = 100;

/**
 * The calendar: one month at a time (the API's `from`/`to`), each month's performances paged by 100, so every
 * published performance is reachable, not the first 50 (issue 34 §3).
 */
export function Calendar({ locale, show, title }: { locale: Locale; show?: string; title: string }) {
  const w = words(locale);
  const today = venueToday();
  const thisMonth = today.slice(0, 7);
  const [month, setMonth] = useState(thisMonth);
  const [more, setMore] = useState<ListedEvent[]>([]);
  const [moreOffers, setMoreOffers] = useState<Schemas['PublicOffer'][]>([]);
  const [moreState, setMoreState] = useState<{ busy: boolean; error?: unknown }>({ busy: false });
  const from = month === thisMonth ? today : `${month}-01`;
  const to = lastDay(month);
  const query = { locale, from, to, limit: PAGE, ...(show ? { show } : {}) };
  const page = useLoad(() => api.GET('/api/public/show-events', { params: { query: { ...query, offset: 0 } } }), [locale, show, month]);
  useEffect(() => {
    setMore([]);
    setMoreOffers([]);
    setMoreState({ busy: false });
  }, [locale, show, month]);

  async function loadMore(loaded: number) {
    setMoreState({ busy: true });
    const next = await attempt(() => api.GET('/api/public/show-events', { params: { query: { ...query, offset: loaded } } }));
    if (!next.ok) return setMoreState({ busy: false, error: next.error });
    setMore((items) => [...items, ...next.data.items]);
    setMoreOffers((offers) => [...offers, ...next.data.offers]);
    setMoreState({ busy: false });
  }

  return (
    <section className="calendar" aria-labelledby="calendar-title" data-month={month}>
      <div className="calendar-head">
        <h2 id="calendar-title">{title}</h2>
        <div className="month-nav">
          <button type="button" className="button button-secondary month-prev" onClick={() => setMonth(addMonths(month, -1))} disabled={month <= thisMonth} aria-label={w.previousMonth}>
            <span aria-hidden="true">‹</span>
          </button>
          <p className="month-label" aria-live="polite">
            {monthLabel(month, locale)}
          </p>
          <button type="button" className="button button-secondary month-next" onClick={() => setMonth(addMonths(month, 1))} disabled={month >= addMonths(thisMonth, MONTHS_AHEAD)} aria-label={w.nextMonth}>
            <span aria-hidden="true">›</span>
          </button>
        </div>
      </div>
      {page.state === 'loading' && <Loading locale={locale} slow={page.slow} onRetry={page.retry} />}
      {page.state === 'failed' && <ProblemNotice locale={locale} error={page.error} onRetry={page.retry} />}
      {page.state === 'ready' && <MonthList locale={locale} page={page.data} more={more} moreOffers={moreOffers} />}
      {page.state === 'ready' && page.data.items.length + more.length < page.data.total && (
        <p>
          <button type="button" className="button button-secondary more-events" disabled={moreState.busy} onClick={() => void loadMore(page.data.items.length + more.length)}>
            {moreState.busy ? w.loading : w.morePerformances}
          </button>
        </p>
      )}
      {moreState.error !== undefined && <ProblemNotice locale={locale} error={moreState.error} onRetry={() => page.state === 'ready' && void loadMore(page.data.items.length + more.length)} />}
    </section>
  );
}

function MonthList({ locale, page, more, moreOffers }: { locale: Locale; page: EventPage; more: ListedEvent[]; moreOffers: Schemas['PublicOffer'][] }) {
  const w = words(locale);
  const items = [...page.items, ...more];
  if (!items.length) return <p className="empty">{w.noPerformancesThisMonth}</p>;
  const offers = new Map([...page.offers, ...moreOffers].map((offer) => [offer.code, offer]));
  const days = new Map<string, ListedEvent[]>();
  for (const event of items) days.set(event.date, [...(days.get(event.date) ?? []), event]);
  return (
    <>
      <p className="muted count">{w.performancesCount(page.total)}</p>
      <ol className="days">
        {[...days].map(([date, events]) => (
          <li key={date} className="day">
            <h3 className="day-label">{dayLabel(date, locale)}</h3>
            <ul className="events">
              {events.map((event) => {
                const prices = event.offerCodes.map((code) => offers.get(code)?.perGuest.totalVnd).filter((p): p is number => p !== undefined);
                const soldOut = event.state === 'SOLD_OUT';
                const open = event.state === 'AVAILABLE' || event.state === 'LIMITED';
                return (
                  <li key={event.slug} className="event-row" data-event={event.slug} data-state={event.state}>
                    <span className="time">{event.time}</span>
                    <span className="event-main">
                      <Link href={`/${locale}/book/${event.slug}`} className="event-title">
                        {event.show.title}
                      </Link>
                      <span className="event-meta">
                        <Availability locale={locale} state={event.state} seatsLeft={event.seatsLeft} cancelled={event.cancelled} />
                        <span className="age-rule">{w.ageRule(event.show.minimumAge)}</span>
                        {prices.length > 0 && <span className="price">{w.priceFrom(vnd(Math.min(...prices), locale))}</span>}
                      </span>
                    </span>
                    {open ? (
                      <Link href={`/${locale}/book/${event.slug}`} className="button button-small" aria-label={`${w.book}: ${event.show.title}, ${dayLabel(date, locale)} ${event.time}`}>
                        {w.book}
                      </Link>
                    ) : soldOut ? (
                      <Link href={`/${locale}/waitlist?event=${encodeURIComponent(event.slug)}`} className="button button-small button-secondary" aria-label={`${w.joinWaitlistShort}: ${event.show.title}, ${dayLabel(date, locale)} ${event.time}`}>
                        {w.joinWaitlistShort}
                      </Link>
                    ) : null}
                  </li>
                );
              })}
            </ul>
          </li>
        ))}
      </ol>
    </>
  );
}
