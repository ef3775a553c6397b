import { useEffect, useState } from 'react';
import { api, problemText, rememberAttribution, type Locale, type Schemas } from '../api.ts';
import { t } from '../i18n.ts';
import { Link, navigate } from '../router.tsx';

export function Partners({ locale }: { locale: Locale }) {
  const [directory, setDirectory] = useState<Schemas['Directory']>();
  const [error, setError] = useState<string>();
  useEffect(() => {
    api.GET('/api/referral-partners/directory').then(({ data, error }) => (data ? setDirectory(data) : setError(problemText(error))));
  }, []);
  if (error) return <p role="alert">{error}</p>;
  if (!directory) return <p>…</p>;
  return (
    <section>
      <h1>{t(locale, 'partners')}</h1>
      <ul className="partners">
        {directory.items.map((partner) => (
          <li key={partner.publicSlug}>
            <Link href={`/${locale}/partners/${encodeURIComponent(partner.publicSlug)}`}>{partner.name}</Link> ({partner.type.toLowerCase().replace('_', ' ')}
            {partner.city ? `, ${partner.city}` : ''}){partner.guestDiscount ? ' — guests get a discount' : ''}
          </li>
        ))}
      </ul>
    </section>
  );
}

export function Partner({ locale, slug }: { locale: Locale; slug: string }) {
  const [profile, setProfile] = useState<Schemas['Profile']>();
  const [error, setError] = useState<string>();
  useEffect(() => {
    api.GET('/api/referral-partners/{slug}/profile', { params: { path: { slug }, query: { locale } } }).then(({ data, error }) => (data ? setProfile(data) : setError(problemText(error))));
  }, [slug, locale]);
  if (error) return <p role="alert">{error}</p>;
  if (!profile) return <p>…</p>;
  return (
    <section>
      <h1>{profile.name}</h1>
      {profile.description && <p>{profile.description}</p>}
      <p>
        {profile.city} {profile.websiteUrl && <a href={profile.websiteUrl}>{profile.websiteUrl}</a>}
      </p>
      <p>
        {profile.stats.bookings} bookings, {profile.stats.guests} guests
      </p>
      <ul className="codes">
        {profile.codes.map((code) => (
          <li key={code.code}>
            <code>{code.code}</code>
            {code.guestDiscount ? ` — ${code.guestDiscountPercent}% off for guests` : ''}
          </li>
        ))}
      </ul>
      <ul className="links">
        {profile.links.map((link) => (
          <li key={link.slug}>
            <a href={link.url}>{link.label ?? link.url}</a>
          </li>
        ))}
      </ul>
    </section>
  );
}

/**
 * `/go/{slug}`: a partner's friendly link. The API records the visit and answers where to go and the signed
 * attribution, which this tab keeps until a booking sends it with the hold.
 */
export function Go({ slug, locale }: { slug: string; locale: Locale }) {
  const [error, setError] = useState<string>();
  useEffect(() => {
    api.POST('/api/referral-links/resolve/{slug}', { params: { path: { slug } }, body: { locale } }).then(({ data, error }) => {
      if (!data) return setError(problemText(error));
      rememberAttribution(data.attribution);
      const destination = new URL(data.destination, window.location.origin);
      if (destination.origin === window.location.origin) navigate(destination.pathname + destination.search);
      else window.location.replace(destination.href);
    });
  }, [slug]);
  return error ? <p role="alert">{error}</p> : <p>…</p>;
}
