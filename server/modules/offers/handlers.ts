import type { OperationHandlers } from '../../platform/http/handler.ts';
import { json } from '../../platform/http/handler.ts';
import { staffActor } from '../../domain/actors.ts';
import { countOutcomes } from '../fulfillment/index.ts';
import { createOffer } from './commands/createOffer.ts';
import { deactivateOffer } from './commands/deactivateOffer.ts';
import { updateOffer } from './commands/updateOffer.ts';
import { upsertOffers } from './commands/upsertOffers.ts';
import { presentOffer } from './presenters.ts';
import { findOfferWithItems, listOffers } from './queries.ts';

export const handlers = {
  async listOffers({ app, query }) {
    const limit = query.limit ?? 20;
    const offset = query.offset ?? 0;
    const page = await listOffers({ showId: query.showId, status: query.status, bookingPath: query.bookingPath, limit, offset });
    return json(200, { items: page.items.map((offer) => presentOffer(offer, app.config)), total: page.total, limit, offset });
  },

  async getOffer({ app, params }) {
    return json(200, presentOffer(await findOfferWithItems(params.offerId), app.config));
  },

  async createOffer({ app, auth, body }) {
    return json(201, presentOffer(await createOffer(app, body, staffActor(auth)), app.config));
  },

  async updateOffer({ app, auth, params, body }) {
    return json(200, presentOffer(await updateOffer(app, params.offerId, body, staffActor(auth)), app.config));
  },

  async deactivateOffer({ app, auth, params }) {
    return json(200, presentOffer(await deactivateOffer(app, params.offerId, staffActor(auth)), app.config));
  },

  async upsertOffers({ app, auth, body }) {
    const results = await upsertOffers(app, body.offers, staffActor(auth));
    return json(200, {
      counts: countOutcomes(results),
      results: results.map(({ code, outcome, offer }) => ({ code, outcome, offer: presentOffer(offer, app.config) })),
    });
  },
} satisfies Partial<OperationHandlers>;
