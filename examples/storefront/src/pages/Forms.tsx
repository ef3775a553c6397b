import { useEffect, useRef, useState, type FormEvent } from 'react';
import { isProblem } from '@venue/sdk';
import { api, problemText, type Locale } from '../api.ts';
import { t } from '../i18n.ts';

const formOf = (e: FormEvent<HTMLFormElement>) => Object.fromEntries(new FormData(e.currentTarget)) as Record<string, string>;

/** Sold out → the waiting list (`?event=<slug>`). */
export function Waitlist({ locale }: { locale: Locale }) {
  const eventSlug = new URLSearchParams(window.location.search).get('event') ?? '';
  const [done, setDone] = useState(false);
  const [error, setError] = useState<string>();
  async function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const form = formOf(e);
    const { data, error } = await api.POST('/api/waitlist', {
      body: { eventSlug: form.eventSlug, guestCount: Number(form.guestCount), name: form.name, email: form.email, ...(form.phone ? { phone: form.phone } : {}), locale },
    });
    if (data) setDone(true);
    else setError(isProblem(error, 'seats_available') ? 'Seats are available again: book them directly.' : problemText(error));
  }
  if (done) return <p className="done">You are on the waiting list: we will e-mail you when seats free up.</p>;
  return (
    <form onSubmit={submit}>
      <h1>{t(locale, 'waitlist')}</h1>
      <input type="hidden" name="eventSlug" value={eventSlug} />
      <label>
        {t(locale, 'guests')} <input name="guestCount" type="number" min={1} defaultValue={2} required />
      </label>
      <label>
        {t(locale, 'name')} <input name="name" required />
      </label>
      <label>
        {t(locale, 'email')} <input name="email" type="email" required />
      </label>
      <label>
        {t(locale, 'phone')} <input name="phone" type="tel" />
      </label>
      <button type="submit">{t(locale, 'joinWaitlist')}</button>
      {error && <p role="alert">{error}</p>}
    </form>
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
    turnstile?: { render(element: HTMLElement, options: { sitekey: string; callback(token: string): void; 'error-callback'?(): void }): string };
  }
}

/** The Turnstile widget: its token once solved. If the script cannot load, the form goes without (the API decides). */
function useTurnstile(container: React.RefObject<HTMLDivElement | null>): string | undefined {
  const [token, setToken] = useState<string>();
  useEffect(() => {
    const render = () => container.current && window.turnstile?.render(container.current, { sitekey: TURNSTILE_SITE_KEY, callback: setToken });
    if (window.turnstile) return void render();
    const script = document.createElement('script');
    script.src = TURNSTILE_SCRIPT;
    script.async = true;
    script.onload = render;
    document.head.appendChild(script);
  }, []);
  return token;
}

/** Private events and groups: the inquiry form, with Turnstile's bot check. */
export function Inquiry({ locale }: { locale: Locale }) {
  const widget = useRef<HTMLDivElement>(null);
  const botcheckToken = useTurnstile(widget);
  const [done, setDone] = useState(false);
  const [error, setError] = useState<string>();
  async function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const form = formOf(e);
    const { data, error } = await api.POST('/api/inquiries', {
      body: {
        type: form.type as 'PRIVATE_EVENT',
        name: form.name,
        email: form.email,
        message: form.message,
        locale,
        ...(form.guestCount ? { guestCount: Number(form.guestCount) } : {}),
        ...(form.preferredDate ? { preferredDate: form.preferredDate } : {}),
        ...(botcheckToken ? { botcheckToken } : {}),
      },
    });
    if (data) setDone(true);
    else setError(isProblem(error, 'botcheck_failed', 'botcheck_required') ? 'Please complete the check above and send again.' : problemText(error));
  }
  if (done) return <p className="done">Thank you: the team will answer within a day.</p>;
  return (
    <form onSubmit={submit}>
      <h1>{t(locale, 'inquiries')}</h1>
      <label>
        Type{' '}
        <select name="type" defaultValue="PRIVATE_EVENT">
          <option value="PRIVATE_EVENT">Private event</option>
          <option value="GROUP_BOOKING">Group booking</option>
          <option value="CORPORATE">Corporate</option>
          <option value="GENERAL">General</option>
        </select>
      </label>
      <label>
        {t(locale, 'name')} <input name="name" required />
      </label>
      <label>
        {t(locale, 'email')} <input name="email" type="email" required />
      </label>
      <label>
        {t(locale, 'guests')} <input name="guestCount" type="number" min={1} />
      </label>
      <label>
        Date <input name="preferredDate" type="date" />
      </label>
      <label>
        Message <textarea name="message" required />
      </label>
      <div ref={widget} className="turnstile" />
      <button type="submit">Send</button>
      {error && <p role="alert">{error}</p>}
    </form>
  );
}
