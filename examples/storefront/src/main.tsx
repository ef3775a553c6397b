import { StrictMode, useEffect, useRef, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { preferredLocale, rememberLocale } from './api.ts';
import { Chat } from './Chat.tsx';
import { isLocale, LOCALES, words, type Locale } from './i18n.ts';
import { Booking } from './pages/Booking.tsx';
import { Dashboard } from './pages/Dashboard.tsx';
import { EventPage } from './pages/EventPage.tsx';
import { Inquiry, Waitlist, WaitlistOffer } from './pages/Forms.tsx';
import { GiftVouchers } from './pages/GiftVouchers.tsx';
import { Go, Partner, Partners } from './pages/Partners.tsx';
import { PaymentReturn } from './pages/PaymentReturn.tsx';
import { Programme, ShowPage } from './pages/Programme.tsx';
import { Link, match, navigate, usePath } from './router.tsx';
import { useTitle } from './ui.tsx';
import './style.css';

/** The site's pages, on the paths the API's links use (`<PUBLIC_SITE_URL>/<locale>/…`, `/go/{slug}`). */
function page(path: string, locale: Locale) {
  let p: Record<string, string> | null;
  if (match('/:locale', path) || match('/:locale/shows', path)) return <Programme locale={locale} />;
  if ((p = match('/:locale/shows/:slug', path))) return <ShowPage key={p.slug} locale={locale} slug={p.slug} />;
  if ((p = match('/:locale/book/:slug', path))) return <EventPage key={p.slug} locale={locale} slug={p.slug} />;
  if ((p = match('/:locale/booking/:reference', path))) return <Booking key={p.reference} locale={locale} reference={p.reference} />;
  if (match('/:locale/payment/return', path)) return <PaymentReturn locale={locale} />;
  if (match('/:locale/waitlist', path)) return <Waitlist locale={locale} />;
  if (match('/:locale/waitlist-offer', path)) return <WaitlistOffer locale={locale} />;
  if (match('/:locale/inquiries', path)) return <Inquiry locale={locale} />;
  if (match('/:locale/partners', path)) return <Partners locale={locale} />;
  if (match('/:locale/gift-vouchers', path)) return <GiftVouchers locale={locale} />;
  if ((p = match('/:locale/partners/:slug', path))) return <Partner key={p.slug} locale={locale} slug={p.slug} />;
  return <NotFound locale={locale} />;
}

/** The venue's name (VITE_VENUE_NAME), the same in every language; else the dictionary's placeholder brand. */
const VENUE_NAME = (import.meta.env.VITE_VENUE_NAME as string | undefined) || '';

function NotFound({ locale }: { locale: Locale }) {
  const w = words(locale);
  useTitle(locale, w.notFoundTitle);
  return (
    <section className="notice notice-info not-found">
      <h1>{w.notFoundTitle}</h1>
      <p>{w.notFoundText}</p>
      <p>
        <Link className="button" href={`/${locale}`}>
          {w.backToProgramme}
        </Link>
      </p>
    </section>
  );
}

/**
 * Paths without a locale: `/` → the guest's language (kept from their last visit, else the browser's);
 * `/waitlist-offer?…` (WAITLIST_OFFER_URL's default path) → `/<locale>/waitlist-offer?…`, its `locale` parameter
 * first. A redirect keeps the query string.
 */
function redirectFor(pathname: string, search: string): string | undefined {
  const query = new URLSearchParams(search);
  const asked = query.get('locale') ?? undefined;
  const locale = isLocale(asked) ? asked : preferredLocale();
  if (pathname === '/' || pathname === '') return `/${locale}${search}`;
  if (pathname === '/waitlist-offer' || pathname === '/waitlist-offer/') return `/${locale}/waitlist-offer${search}`;
  return undefined;
}

function App() {
  const full = usePath();
  const [pathname, search = ''] = [full.split('?')[0], full.includes('?') ? `?${full.split('?').slice(1).join('?')}` : ''];
  const redirect = redirectFor(pathname, search);
  useEffect(() => {
    if (redirect) navigate(redirect, { replace: true });
  }, [redirect]);
  const first = pathname.split('/')[1];
  const locale: Locale = isLocale(first) ? first : preferredLocale();
  const [chatOpen, setChatOpen] = useState(false);
  const opener = useRef<HTMLButtonElement>(null);

  // `<html lang>` is the page's language (screen readers, hyphenation, the browser's translate offer).
  useEffect(() => {
    document.documentElement.lang = locale;
    if (isLocale(first)) rememberLocale(locale);
  }, [locale, first]);

  if (redirect) return null;
  if (pathname === '/dashboard') {
    return (
      <main id="main" className="site-main">
        <Dashboard />
      </main>
    );
  }
  const goPath = match('/go/:slug', pathname);
  const other: Locale = LOCALES.find((l) => l !== locale)!;
  const switchTo = isLocale(first) ? `/${other}${pathname.slice(first.length + 1)}${search}` : `/${other}`;
  const w = words(locale);
  return (
    <div className="layout" data-chat={chatOpen ? 'open' : 'closed'}>
      <div className="site">
        <a className="skip-link" href="#main">
          {w.skipToContent}
        </a>
        <header className="site-header">
          <div className="header-inner">
            <Link href={`/${locale}`} className="brand" {...(VENUE_NAME ? { translate: 'no' as const } : {})}>
              {VENUE_NAME || w.brand}
            </Link>
            <Link href={switchTo} hrefLang={other} lang={other} className="language">
              {words(other).languageName}
            </Link>
            <nav aria-label={w.mainNav} className="main-nav">
              <Link href={`/${locale}`} aria-current={match('/:locale', pathname) || match('/:locale/shows', pathname) ? 'page' : undefined}>
                {w.navWhatsOn}
              </Link>
              <Link href={`/${locale}/inquiries`} aria-current={match('/:locale/inquiries', pathname) ? 'page' : undefined}>
                {w.navGroups}
              </Link>
              <Link href={`/${locale}/partners`} aria-current={pathname.startsWith(`/${locale}/partners`) ? 'page' : undefined}>
                {w.navPartners}
              </Link>
              <Link href={`/${locale}/gift-vouchers`} aria-current={match('/:locale/gift-vouchers', pathname) ? 'page' : undefined}>
                {w.navGiftVouchers}
              </Link>
            </nav>
          </div>
        </header>
        <main id="main" className="site-main" tabIndex={-1}>
          {goPath ? <Go slug={goPath.slug} locale={locale} /> : isLocale(first) ? page(pathname, locale) : <NotFound locale={locale} />}
        </main>
        <footer className="site-footer">
          {!chatOpen && (
            <button type="button" ref={opener} className="button button-primary chat-open" onClick={() => setChatOpen(true)} aria-expanded="false" title={w.chatOpen}>
              <svg className="chat-open-icon" aria-hidden="true" viewBox="0 0 24 24" width="24" height="24">
                <path fill="currentColor" d="M4 4h16a2 2 0 0 1 2 2v10a2 2 0 0 1-2 2H9l-5 4v-4a2 2 0 0 1-2-2V6a2 2 0 0 1 2-2zm3 6.5a1.5 1.5 0 1 0 0-3 1.5 1.5 0 0 0 0 3zm5 0a1.5 1.5 0 1 0 0-3 1.5 1.5 0 0 0 0 3zm5 0a1.5 1.5 0 1 0 0-3 1.5 1.5 0 0 0 0 3z" />
              </svg>
              <span className="chat-open-label">{w.chatOpen}</span>
            </button>
          )}
          <p className="muted">{w.footerNote}</p>
        </footer>
      </div>
      <Chat locale={locale} open={chatOpen} onClose={() => setChatOpen(false)} opener={opener} />
    </div>
  );
}

// A rejection nobody handled is a defect of this site, not something a guest should meet silently: log it plainly
// (the browser tests fail on any).
window.addEventListener('unhandledrejection', (event) => console.error('unhandled rejection', event.reason));

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
