import type { OperationHandlers } from '../../platform/http/handler.ts';
import { NotFound } from '../../platform/http/problem.ts';
import { cacheable, presentation } from '../catalog/index.ts';
import { findPublicEvent, listUpcomingEvents } from '../catalog/index.ts';
import { publishedKnowledge } from '../knowledge/index.ts';
import { presentAssistantEvent, presentAssistantShow, presentAvailabilityEvent, presentBookingOptions, presentRoutes } from './presenters.ts';
import { siteRoutes } from './routes.ts';
import { eventsOnDate, eventsWindow, showsWithUpcoming } from './service.ts';

/**
 * The assistant-safe data (spec §4.1): what the assistant's tools read over HTTP. Public, compact and cacheable
 * like the public catalog (`Cache-Control: public, max-age=60`, a strong ETag, 304 on `If-None-Match`).
 */
export const handlers = {
  async listAssistantShows(call) {
    const p = presentation(call, call.query.locale);
    const routes = siteRoutes(call.app.config.publicSiteUrl, p.locale);
    const { shows, events, sales } = await showsWithUpcoming(call.app.db.knex, p);
    const items = shows.map((show) => presentAssistantShow(show, events.filter((event) => event.show_id === show.id), sales, p, routes));
    return cacheable(call, p, { locale: p.locale, currency: 'VND' as const, timeZone: p.zone, items });
  },

  async listAssistantEvents(call) {
    const { query } = call;
    const p = presentation(call, query.locale);
    const routes = siteRoutes(call.app.config.publicSiteUrl, p.locale);
    const window = eventsWindow(query, p);
    const page = { limit: query.limit ?? 50, offset: query.offset ?? 0 };
    const { events, total, sales } = await listUpcomingEvents(call.app.db.knex, { zone: p.zone, start: window.start, end: window.end, now: p.now, showSlug: query.show, ...page });
    return cacheable(call, p, {
      locale: p.locale,
      timeZone: p.zone,
      from: window.from,
      to: window.to,
      total,
      ...page,
      items: events.map((event) => presentAssistantEvent(event, sales, p, routes)),
    });
  },

  async getAssistantAvailability(call) {
    const { query } = call;
    const p = presentation(call, query.locale);
    const routes = siteRoutes(call.app.config.publicSiteUrl, p.locale);
    const guests = query.guests ?? 1;
    const { events, sales } = await eventsOnDate(call.app.db.knex, query.date, query.show, p);
    const items = events.map((event) => presentAvailabilityEvent(event, sales, p, routes, guests));
    return cacheable(call, p, {
      locale: p.locale,
      timeZone: p.zone,
      date: query.date,
      guests,
      available: items.some((item) => item.fit === 'FITS'),
      events: items,
      inquiryUrl: routes.pages.inquiries,
    });
  },

  async getAssistantBookingOptions(call) {
    const { query } = call;
    const p = presentation(call, query.locale);
    const found = await findPublicEvent(call.app.db.knex, query.event, p.zone, p.now);
    if (!found) throw NotFound('No such show event.');
    const routes = siteRoutes(call.app.config.publicSiteUrl, p.locale);
    return cacheable(call, p, presentBookingOptions(found.event, found.sales, p, routes, query.guests));
  },

  async getAssistantRoutes(call) {
    const p = presentation(call, call.query.locale);
    const routes = siteRoutes(call.app.config.publicSiteUrl, p.locale);
    const { shows, events, sales } = await showsWithUpcoming(call.app.db.knex, p);
    return cacheable(call, p, presentRoutes(shows, events, sales, p, routes, call.app.config.siteLocales));
  },

  async listAssistantKnowledge(call) {
    const { query } = call;
    const p = presentation(call, query.locale);
    const items = await publishedKnowledge(call.app.db.knex, { locale: p.locale, defaultLocale: p.defaultLocale, tag: query.tag, q: query.q, limit: query.limit ?? 50 });
    return cacheable(call, p, { locale: p.locale, items });
  },
} satisfies Partial<OperationHandlers>;
