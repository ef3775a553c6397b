import type { Call, OperationHandlers } from '../../platform/http/handler.ts';
import { json, noContent } from '../../platform/http/handler.ts';
import { presentOwnProfile, presentProfile, presentReaction } from './presenters.ts';
import {
  assignTable,
  createProfile,
  deleteProfile,
  listProfiles,
  listReactions,
  profileForTokenOrFail,
  react,
  throttleProfileWrite,
  throttleReaction,
  updateOwnProfile,
} from './service.ts';

const profileToken = (call: Call) => call.header('x-profile-token') || undefined;
const NO_STORE = { 'Cache-Control': 'no-store' };

const current = {
  async createGuestProfile(call) {
    await throttleProfileWrite(call.app, call.ip);
    const { reservationReference, ...input } = call.body;
    const { profile, token } = await createProfile(call.app.db.knex, reservationReference, call.header('x-reservation-token') || undefined, input);
    return json(201, { ...presentOwnProfile(profile), profileToken: token }, NO_STORE);
  },

  async getOwnProfile(call) {
    return json(200, presentOwnProfile(await profileForTokenOrFail(call.app.db.knex, profileToken(call))), NO_STORE);
  },

  async updateOwnProfile(call) {
    await throttleProfileWrite(call.app, call.ip);
    const knex = call.app.db.knex;
    const profile = await profileForTokenOrFail(knex, profileToken(call));
    return json(200, presentOwnProfile(await updateOwnProfile(knex, profile, call.body)), NO_STORE);
  },

  async createReaction(call) {
    const knex = call.app.db.knex;
    const profile = await profileForTokenOrFail(knex, profileToken(call));
    await throttleReaction(call.app, call.ip, profile.id);
    return json(201, presentReaction(await react(knex, profile, call.body)));
  },

  async listProfiles(call) {
    const { query } = call;
    const limit = query.limit ?? 20;
    const offset = query.offset ?? 0;
    const page = await listProfiles(call.app.db.knex, { eventId: query.eventId, includeDeleted: query.includeDeleted ?? false, limit, offset });
    return json(200, { items: page.items.map(presentProfile), total: page.total, limit, offset });
  },

  async listReactions(call) {
    const { query } = call;
    const limit = query.limit ?? 20;
    const offset = query.offset ?? 0;
    const page = await listReactions(call.app.db.knex, { eventId: query.eventId, since: query.since, limit, offset });
    return json(200, { items: page.items.map(presentReaction), total: page.total, limit, offset });
  },

  async updateProfile(call) {
    return json(200, presentProfile(await assignTable(call.app.db.knex, call.params.profileId, call.body.tableId)));
  },

  async deleteProfile(call) {
    await deleteProfile(call.app.db.knex, call.params.profileId);
    return noContent();
  },
} satisfies Partial<OperationHandlers>;

/**
 * The guest's flows before the spec's `/api/profiles` family (`/api/public/profiles…`) are deprecated aliases
 * (`x-deprecated-alias` in openapi/paths/profiles.yaml): each bound to the very same handler; the router adds
 * `Deprecation` and `Link` to their answers.
 */
export const handlers = {
  ...current,
  createGuestProfileDeprecated: current.createGuestProfile,
  getOwnProfileDeprecated: current.getOwnProfile,
  updateOwnProfileDeprecated: current.updateOwnProfile,
  createReactionDeprecated: current.createReaction,
} satisfies Partial<OperationHandlers>;
