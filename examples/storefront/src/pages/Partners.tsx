import { useEffect, useState } from 'react';
import { api, attempt, rememberAttribution } from '../api.ts';
import { words, type Locale } from '../i18n.ts';
import { Link, navigate } from '../router.tsx';
import { Await, Loading, ProblemNotice, useLoad, useTitle } from '../ui.tsx';

/** `/<locale>/partners`: the partner directory. */
export function Partners({ locale }: { locale: Locale }) {
  const w = words(locale);
  useTitle(locale, w.partnersTitle);
  const directory = useLoad(() => api.GET('/api/referral-partners/directory'), []);
  return (
    <>
      <h1>{w.partnersTitle}</h1>
      <p className="lead">{w.partnersIntro}</p>
      <Await load={directory} locale={locale}>
        {(d) =>
          d.items.length ? (
            <ul className="cards partners">
              {d.items.map((partner) => (
                <li key={partner.publicSlug} className="card partner-card" data-partner={partner.publicSlug}>
                  <div className="card-body">
                    <h2 className="h3">
                      <Link href={`/${locale}/partners/${encodeURIComponent(partner.publicSlug)}`} translate="no">
                        {partner.name}
                      </Link>
                    </h2>
                    <p className="meta">
                      <span>{w.partnerTypes[partner.type]}</span>
                      {partner.city && <span data-authored="">{partner.city}</span>}
                    </p>
                    {partner.guestDiscount && <p className="badge badge-confirmed">{w.guestDiscount}</p>}
                  </div>
                </li>
              ))}
            </ul>
          ) : (
            <p className="empty">{w.noPartners}</p>
          )
        }
      </Await>
    </>
  );
}

/** `/<locale>/partners/<slug>`: a partner's page, its description in the page's language when the API has one. */
export function Partner({ locale, slug }: { locale: Locale; slug: string }) {
  const w = words(locale);
  const profile = useLoad(() => api.GET('/api/referral-partners/{slug}/profile', { params: { path: { slug }, query: { locale } } }), [slug, locale]);
  useTitle(locale, profile.state === 'ready' ? profile.data.name : undefined);
  return (
    <Await load={profile} locale={locale}>
      {(p) => (
        <article className="partner">
          <p>
            <Link href={`/${locale}/partners`}>{w.allPartners}</Link>
          </p>
          <h1 translate="no">{p.name}</h1>
          <p className="meta">
            <span>{w.partnerTypes[p.type]}</span>
            {p.city && <span data-authored="">{p.city}</span>}
          </p>
          {/* The partner's own words, marked with the language the API returned them in (issue 34 §2): the page's,
              else its fallback when the partner wrote none in the page's language. */}
          {p.description && (
            <p className="description" lang={p.descriptionLocale ?? undefined}>
              {p.description}
            </p>
          )}
          {p.websiteUrl && (
            <p>
              {w.website}: <a href={p.websiteUrl}>{p.websiteUrl.replace(/^https?:\/\//, '')}</a>
            </p>
          )}
          <p className="muted">{w.partnerStats(p.stats.bookings, p.stats.guests)}</p>
          {p.codes.length > 0 && (
            <section aria-labelledby="codes-title">
              <h2 id="codes-title">{w.partnerCodes}</h2>
              <ul className="codes">
                {p.codes.map((code) => (
                  <li key={code.code}>
                    <code translate="no">{code.code}</code>: {code.guestDiscount && code.guestDiscountPercent ? w.codeDiscount(code.guestDiscountPercent) : w.codeNoDiscount}
                  </li>
                ))}
              </ul>
            </section>
          )}
          {p.links.length > 0 && (
            <section aria-labelledby="links-title">
              <h2 id="links-title">{w.partnerLinks}</h2>
              <ul className="links">
                {p.links.map((link) => (
                  <li key={link.slug}>
                    <a href={link.url} data-authored="">
                      {link.label ?? link.url}
                    </a>
                  </li>
                ))}
              </ul>
            </section>
          )}
        </article>
      )}
    </Await>
  );
}

/**
 * `/go/{slug}`: a partner's friendly link. The API records the visit and answers where to go and the signed
 * attribution, which this tab keeps until a booking sends it with the hold.
 */
export function Go({ slug, locale }: { slug: string; locale: Locale }) {
  const [error, setError] = useState<unknown>();
  const [round, setRound] = useState(0);
  useEffect(() => {
    let live = true;
    setError(undefined);
    void attempt(() => api.POST('/api/referral-links/resolve/{slug}', { params: { path: { slug } }, body: { locale } })).then((answer) => {
      if (!live) return;
      if (!answer.ok) return setError(answer.error);
      rememberAttribution(answer.data.attribution);
      const destination = new URL(answer.data.destination, window.location.origin);
      if (destination.origin === window.location.origin) navigate(destination.pathname + destination.search, { replace: true });
      else window.location.replace(destination.href);
    });
    return () => {
      live = false;
    };
  }, [slug, round]);
  if (error !== undefined)
    return (
      <ProblemNotice locale={locale} error={error} onRetry={() => setRound((n) => n + 1)}>
        <p>
          <Link href={`/${locale}`}>{words(locale).backToProgramme}</Link>
        </p>
      </ProblemNotice>
    );
  return <Loading locale={locale} />;
}
