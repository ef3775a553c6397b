import type { Call, OperationHandlers } from '../../platform/http/handler.ts';
import { json, noContent } from '../../platform/http/handler.ts';
import { createGuestProfile } from './commands/createGuestProfile.ts';
import { createReaction } from './commands/createReaction.ts';
import { deleteProfile } from './commands/deleteProfile.ts';
import { updateOwnProfile } from './commands/updateOwnProfile.ts';
import { updateProfile } from './commands/updateProfile.ts';
import { throttleProfileWrite, throttleReaction } from './limits.ts';
import { presentOwnProfile, presentProfile, presentReaction } from './presenters.ts';
import { listProfiles, listReactions, profileForTokenOrFail } from './queries.ts';

const profileToken = (call: Call) => call.header('x-profile-token') || undefined;
const NO_STORE = { 'Cache-Control': 'no-store' };

const current = {
  async createGuestProfile(call) {
    await throttleProfileWrite(call.app, call.ip);
    const { reservationReference, ...input } = call.body;
    const { profile, token } = await createGuestProfile(call.app, reservationReference, call.header('x-reservation-token') || undefined, input);
    return json(201, { ...presentOwnProfile(profile), profileToken: token }, NO_STORE);
  },

  async getOwnProfile(call) {
    return json(200, presentOwnProfile(await profileForTokenOrFail(profileToken(call))), NO_STORE);
  },

  async updateOwnProfile(call) {
    await throttleProfileWrite(call.app, call.ip);
    const profile = await profileForTokenOrFail(profileToken(call));
    return json(200, presentOwnProfile(await updateOwnProfile(call.app, profile, call.body)), NO_STORE);
  },

  async createReaction(call) {
    const profile = await profileForTokenOrFail(profileToken(call));
    await throttleReaction(call.app, call.ip, profile.id);
    return json(201, presentReaction(await createReaction(call.app, profile, call.body)));
  },

  async listProfiles(call) {
    const { query } = call;
    const limit = query.limit ?? 20;
    const offset = query.offset ?? 0;
    const page = await listProfiles({ eventId: query.eventId, includeDeleted: query.includeDeleted ?? false, limit, offset });
    return json(200, { items: page.items.map(presentProfile), total: page.total, limit, offset });
  },

  async listReactions(call) {
    const { query } = call;
    const limit = query.limit ?? 20;
    const offset = query.offset ?? 0;
    const page = await listReactions({ eventId: query.eventId, since: query.since, limit, offset });
    return json(200, { items: page.items.map(presentReaction), total: page.total, limit, offset });
  },

  async updateProfile(call) {
    return json(200, presentProfile(await updateProfile(call.app, call.params.profileId, call.body.tableId)));
  },

  async deleteProfile(call) {
    await deleteProfile(call.app, call.params.profileId);
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
