import { isProblem } from '@venue/sdk';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { api, attempt, when } from '../api.ts';
import { words, type InquiryType, type Locale } from '../i18n.ts';
import { Link } from '../router.tsx';
import { Await, Field, formProblem, NextSteps, ProblemNotice, TextField, useLoad, useTitle, type FormProblem } from '../ui.tsx';
import { BookingForm, EventHeader } from './EventPage.tsx';

const formOf = (e: FormEvent<HTMLFormElement>) => Object.fromEntries(new FormData(e.currentTarget)) as Record<string, string>;

/** A form's send: busy while it runs, its failure kept for the fields and the alert (focused, so it is read out). */
export function useSend(locale: Locale) {
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<FormProblem & { error: unknown }>();
  const alertRef = useRef<HTMLDivElement>(null);
  async function send<T>(call: () => Promise<{ data?: T; error?: unknown; response?: Response }>): Promise<T | undefined> {
    setBusy(true);
    setFailure(undefined);
    const answer = await attempt(call);
    setBusy(false);
    if (answer.ok) return answer.data;
    setFailure({ ...formProblem(answer.error, locale), error: answer.error });
    setTimeout(() => alertRef.current?.focus(), 0);
    return undefined;
  }
  return { busy, failure, alertRef, send, errors: failure?.byInput ?? {} };
}

/** `/<locale>/waitlist?event=<slug>`: a sold-out performance's waiting list; once joined, what happens next. */
export function Waitlist({ locale }: { locale: Locale }) {
  const w = words(locale);
  useTitle(locale, w.waitlistTitle);
  const eventSlug = new URLSearchParams(window.location.search).get('event') ?? '';
  const event = useLoad(
    () => (eventSlug ? api.GET('/api/public/show-events/{slug}', { params: { path: { slug: eventSlug }, query: { locale } } }) : Promise.resolve({ data: undefined, error: { status: 404, code: 'unknown_event' } })),
    [eventSlug, locale],
  );
  const [joined, setJoined] = useState<string>();
  const { busy, failure, alertRef, send, errors } = useSend(locale);

  async function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const form = formOf(e);
    const body = { eventSlug, guestCount: Number(form.guestCount), name: form.name.trim(), email: form.email.trim(), ...(form.phone?.trim() ? { phone: form.phone.trim() } : {}), locale };
    if (await send(() => api.POST('/api/waitlist', { body }))) setJoined(body.email);
  }

  if (!eventSlug) return <p className="notice notice-info">{w.waitlistNoEvent}</p>;
  return (
    <Await load={event} locale={locale}>
      {(e) =>
        joined ? (
          <section className="panel done">
            <h1>{w.waitlistDoneTitle}</h1>
            <p className="lead">
              {e.show.title}, {when(e.startsAt, locale)}
            </p>
            <NextSteps locale={locale} steps={w.waitlistNext(joined)}>
              <p>
                <Link className="button button-secondary" href={`/${locale}/shows/${e.show.slug}`}>
                  {w.meanwhile}
                </Link>
              </p>
            </NextSteps>
          </section>
        ) : (
          <form onSubmit={submit} className="panel waitlist" aria-labelledby="waitlist-title">
            <h1 id="waitlist-title">{w.waitlistTitle}</h1>
            <p className="lead">{w.waitlistIntro(e.show.title, when(e.startsAt, locale))}</p>
            <TextField label={w.guests} name="guestCount" type="number" inputMode="numeric" min={1} max={50} defaultValue={2} required error={errors.guestCount} />
            <TextField label={w.fullName} name="name" required autoComplete="name" maxLength={200} error={errors.name} />
            <TextField label={w.email} name="email" type="email" required autoComplete="email" maxLength={254} error={errors.email} />
            <TextField label={w.phoneOptional} name="phone" type="tel" autoComplete="tel" maxLength={40} error={errors.phone} />
            <button type="submit" className="button button-primary" disabled={busy}>
              {busy ? w.sending : w.waitlistJoin}
            </button>
            <div ref={alertRef} tabIndex={-1} className="form-alert">
              {failure &&
                (isProblem(failure.error, 'seats_available') ? (
                  <div className="notice notice-success" role="alert">
                    <p>{w.seatsBackOnSale}</p>
                    <Link className="button" href={`/${locale}/book/${e.slug}`}>
                      {w.book}
                    </Link>
                  </div>
                ) : (
                  <ProblemNotice locale={locale} error={failure.error} />
                ))}
            </div>
          </form>
        )
      }
    </Await>
  );
}

/**
 * `/<locale>/waitlist-offer?event=<slug>&token=<token>`: the page the waiting-list offer e-mail links to
 * (WAITLIST_OFFER_URL). The offer holds seats for the party; the guest books them here with the token (the hold's
 * `waitlistToken`), then pays on the booking's page like any other booking.
 */
export function WaitlistOffer({ locale }: { locale: Locale }) {
  const w = words(locale);
  useTitle(locale, w.offerTitle);
  const params = new URLSearchParams(window.location.search);
  const eventSlug = params.get('event') ?? '';
  const token = params.get('token') ?? '';
  const event = useLoad(
    () => (eventSlug ? api.GET('/api/public/show-events/{slug}', { params: { path: { slug: eventSlug }, query: { locale } } }) : Promise.resolve({ data: undefined, error: { status: 404, code: 'unknown_event' } })),
    [eventSlug, locale],
  );
  if (!eventSlug || !token) return <p className="notice notice-info offer-missing">{w.offerMissing}</p>;
  return (
    <Await load={event} locale={locale}>
      {(e) => (
        <>
          <EventHeader locale={locale} event={e} title={w.offerTitle} />
          <p className="lead offer-intro">{w.offerIntro(e.show.title, when(e.startsAt, locale))}</p>
          <p className="muted">{w.offerPartyNote}</p>
          {e.offers.length ? (
            <BookingForm locale={locale} event={e} waitlistToken={token} />
          ) : (
            <ProblemNotice locale={locale} error={{ status: 409, code: e.cancelled ? 'event_cancelled' : 'event_not_bookable' }}>
              <p>
                <Link className="button" href={`/${locale}/shows/${e.show.slug}`}>
                  {w.chooseAnotherDate}
                </Link>
              </p>
            </ProblemNotice>
          )}
        </>
      )}
    </Await>
  );
}

/**
 * Cloudflare Turnstile's site key: VITE_TURNSTILE_SITE_KEY, else Cloudflare's documented always-passes test key
 * (pair it with the test secret `1x0000000000000000000000000000000AA` as the API's BOTCHECK_SECRET_KEY).
 */
const TURNSTILE_SITE_KEY = (import.meta.env.VITE_TURNSTILE_SITE_KEY as string | undefined) || '1x00000000000000000000AA';
const TURNSTILE_SCRIPT = 'https://challenges.cloudflare.com/turnstile/v0/api.js?render=explicit';

declare global {
  interface Window {
    turnstile?: { render(element: HTMLElement, options: { sitekey: string; language?: string; callback(token: string): void; 'error-callback'?(): void }): string };
  }
}

/** The Turnstile widget, in the page's language: its token once solved. If the script cannot load, the form goes without (the API decides). */
function useTurnstile(container: React.RefObject<HTMLDivElement | null>, locale: Locale): string | undefined {
  const [token, setToken] = useState<string>();
  useEffect(() => {
    const render = () => container.current && window.turnstile?.render(container.current, { sitekey: TURNSTILE_SITE_KEY, language: locale, callback: setToken });
    if (window.turnstile) return void render();
    const script = document.createElement('script');
    script.src = TURNSTILE_SCRIPT;
    script.async = true;
    script.onload = render;
    document.head.appendChild(script);
  }, []);
  return token;
}

const INQUIRY_TYPES: InquiryType[] = ['PRIVATE_EVENT', 'GROUP_BOOKING', 'CORPORATE', 'GENERAL'];

/** `/<locale>/inquiries`: groups and private events, with Turnstile's bot check; once sent, what happens next. */
export function Inquiry({ locale }: { locale: Locale }) {
  const w = words(locale);
  useTitle(locale, w.inquiryTitle);
  const widget = useRef<HTMLDivElement>(null);
  const botcheckToken = useTurnstile(widget, locale);
  const [sentTo, setSentTo] = useState<string>();
  const { busy, failure, alertRef, send, errors } = useSend(locale);
  async function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const form = formOf(e);
    const body = {
      type: form.type as InquiryType,
      name: form.name.trim(),
      email: form.email.trim(),
      message: form.message.trim(),
      locale,
      ...(form.phone?.trim() ? { phone: form.phone.trim() } : {}),
      ...(form.guestCount ? { guestCount: Number(form.guestCount) } : {}),
      ...(form.preferredDate ? { preferredDate: form.preferredDate } : {}),
      ...(botcheckToken ? { botcheckToken } : {}),
    };
    if (await send(() => api.POST('/api/inquiries', { body }))) setSentTo(body.email);
  }
  if (sentTo) {
    return (
      <section className="panel done">
        <h1>{w.inquiryDoneTitle}</h1>
        <NextSteps locale={locale} steps={w.inquiryNext(sentTo)}>
          <p>
            <Link className="button button-secondary" href={`/${locale}`}>
              {w.backToProgramme}
            </Link>
          </p>
        </NextSteps>
      </section>
    );
  }
  return (
    <form onSubmit={submit} className="panel inquiry" aria-labelledby="inquiry-title">
      <h1 id="inquiry-title">{w.inquiryTitle}</h1>
      <p className="lead">{w.inquiryIntro}</p>
      <Field label={w.inquiryType} error={errors.type}>
        {(aria) => (
          <select {...aria} name="type" defaultValue="PRIVATE_EVENT">
            {INQUIRY_TYPES.map((type) => (
              <option key={type} value={type}>
                {w.inquiryTypes[type]}
              </option>
            ))}
          </select>
        )}
      </Field>
      <TextField label={w.fullName} name="name" required autoComplete="name" maxLength={200} error={errors.name} />
      <TextField label={w.email} name="email" type="email" required autoComplete="email" maxLength={254} error={errors.email} />
      <TextField label={w.phoneOptional} name="phone" type="tel" autoComplete="tel" maxLength={40} error={errors.phone} />
      <TextField label={w.guestsOptional} name="guestCount" type="number" inputMode="numeric" min={1} max={2000} error={errors.guestCount} />
      <TextField label={w.preferredDate} name="preferredDate" type="date" error={errors.preferredDate} />
      <Field label={w.message} error={errors.message}>
        {(aria) => <textarea {...aria} name="message" rows={5} required maxLength={4000} />}
      </Field>
      <div role="group" aria-label={w.botcheck} ref={widget} className="turnstile" />
      <button type="submit" className="button button-primary" disabled={busy}>
        {busy ? w.sending : w.send}
      </button>
      <div ref={alertRef} tabIndex={-1} className="form-alert">
        {failure && <ProblemNotice locale={locale} error={failure.error} />}
      </div>
    </form>
  );
}
