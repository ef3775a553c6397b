import type { OperationHandlers } from '../../platform/http/handler.ts';
import { NotFound } from '../../platform/http/problem.ts';
import { answered, presentation } from './answers.ts';
import { presentEvent, presentEventPage, presentShow, presentShowDetail, type Presentation } from './presenters.ts';
import { dateWindow, findPublicEvent, findPublishedShow, listPublishedShows, listUpcomingEvents } from './queries.ts';

const NoSuchShow = () => NotFound('No such show.');

/**
 * The public reads answer from the catalog cache (./cache.ts): the key is the operation, the locale answered and
 * the parameters that shape the answer, each named (so their order in the URL does not matter).
 */
const keyOf = (operation: string, p: Presentation, parts: unknown[]) => JSON.stringify([operation, p.locale, ...parts.map((part) => part ?? null)]);

export const handlers = {
  async listPublicShows(call) {
    const p = presentation(call, call.query.locale);
    const page = { limit: call.query.limit ?? 20, offset: call.query.offset ?? 0 };
    const answer = await call.app.catalogCache.answer(keyOf('listPublicShows', p, [page.limit, page.offset]), p.now, async () => {
      const { shows, total, sales } = await listPublishedShows(call.app.db.knex, p.zone, p.now, page);
      return { items: shows.map((show) => presentShow(show, sales, p)), total, ...page, locale: p.locale };
    });
    return answered(call, p, answer);
  },

  async getPublicShow(call) {
    const p = presentation(call, call.query.locale);
    const answer = await call.app.catalogCache.answer(keyOf('getPublicShow', p, [call.params.slug]), p.now, async () => {
      const found = await findPublishedShow(call.app.db.knex, call.params.slug, p.zone, p.now);
      if (!found) throw NoSuchShow();
      return presentShowDetail(found.show, found.events, found.sales, p);
    });
    return answered(call, p, answer);
  },

  async listPublicShowEvents(call) {
    const { query } = call;
    const p = presentation(call, query.locale);
    const window = dateWindow(query, p.zone, p.now);
    const page = { limit: query.limit ?? 20, offset: query.offset ?? 0 };
    const key = keyOf('listPublicShowEvents', p, [window.from, window.to, query.show, page.limit, page.offset]);
    const answer = await call.app.catalogCache.answer(key, p.now, async () => {
      const { events, total, sales } = await listUpcomingEvents(call.app.db.knex, { zone: p.zone, start: window.start, end: window.end, now: p.now, showSlug: query.show, ...page });
      return {
        ...presentEventPage(events, sales, p),
        total,
        ...page,
        from: window.from,
        to: window.to,
        timeZone: p.zone,
        locale: p.locale,
      };
    });
    return answered(call, p, answer);
  },

  async getPublicShowEvent(call) {
    const p = presentation(call, call.query.locale);
    const answer = await call.app.catalogCache.answer(keyOf('getPublicShowEvent', p, [call.params.slug]), p.now, async () => {
      const found = await findPublicEvent(call.app.db.knex, call.params.slug, p.zone, p.now);
      if (!found) throw NotFound('No such show event.');
      return presentEvent(found.event, found.sales, p);
    });
    return answered(call, p, answer);
  },
} satisfies Partial<OperationHandlers>;
