import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { LOCALES, type Locale } from './api.ts';
import { Chat } from './Chat.tsx';
import { t } from './i18n.ts';
import { Booking } from './pages/Booking.tsx';
import { Dashboard } from './pages/Dashboard.tsx';
import { EventPage } from './pages/EventPage.tsx';
import { Events } from './pages/Events.tsx';
import { Inquiry, Waitlist } from './pages/Forms.tsx';
import { Go, Partner, Partners } from './pages/Partners.tsx';
import { PaymentReturn } from './pages/PaymentReturn.tsx';
import { Link, match, usePath } from './router.tsx';
import './style.css';

/** The site's pages, on the paths the API's links use (`<PUBLIC_SITE_URL>/<locale>/…`, `/go/{slug}`). */
function page(path: string, locale: Locale) {
  let p: Record<string, string> | null;
  if ((p = match('/go/:slug', path))) return <Go slug={p.slug} locale={locale} />;
  if (match('/dashboard', path)) return <Dashboard />;
  if (path.split('/')[1] !== locale) return <p role="alert">Page not found.</p>;
  if (match('/:locale', path) || match('/:locale/shows', path)) return <Events locale={locale} />;
  if ((p = match('/:locale/shows/:slug', path))) return <Events locale={locale} show={p.slug} />;
  if ((p = match('/:locale/book/:slug', path))) return <EventPage locale={locale} slug={p.slug} />;
  if ((p = match('/:locale/booking/:reference', path))) return <Booking locale={locale} reference={p.reference} />;
  if (match('/:locale/payment/return', path)) return <PaymentReturn locale={locale} />;
  if (match('/:locale/waitlist', path)) return <Waitlist locale={locale} />;
  if (match('/:locale/inquiries', path)) return <Inquiry locale={locale} />;
  if (match('/:locale/partners', path)) return <Partners locale={locale} />;
  if ((p = match('/:locale/partners/:slug', path))) return <Partner locale={locale} slug={p.slug} />;
  return <p role="alert">Page not found.</p>;
}

function App() {
  const path = usePath();
  const first = path.split('/')[1];
  const locale: Locale = (LOCALES as readonly string[]).includes(first) ? (first as Locale) : navigator.language.startsWith('vi') ? 'vi' : 'en';
  if (path === '/') {
    window.history.replaceState(null, '', `/${locale}`);
    return <App />;
  }
  const other: Locale = locale === 'en' ? 'vi' : 'en';
  const switchTo = first === locale ? `/${other}${path.slice(3)}` : `/${other}`;
  return (
    <>
      <header>
        <Link href={`/${locale}`} className="brand">
          Venue
        </Link>
        <nav>
          <Link href={`/${locale}`}>{t(locale, 'upcoming')}</Link>
          <Link href={`/${locale}/inquiries`}>{t(locale, 'inquiries')}</Link>
          <Link href={`/${locale}/partners`}>{t(locale, 'partners')}</Link>
          <Link href={switchTo} hrefLang={other}>
            {other === 'vi' ? 'Tiếng Việt' : 'English'}
          </Link>
        </nav>
      </header>
      <main lang={locale}>{page(path, locale)}</main>
      {path !== '/dashboard' && <Chat locale={locale} />}
    </>
  );
}

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
