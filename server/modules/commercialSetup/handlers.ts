import type { OperationHandlers } from '../../platform/http/handler.ts';
import { json } from '../../platform/http/handler.ts';
import { staffActor } from '../../domain/actors.ts';
import { updateCommercialSetup } from './commands/updateCommercialSetup.ts';
import { presentCommercialSetup } from './presenters.ts';
import { getCommercialSetup } from './queries.ts';

export const handlers = {
  async getCommercialSetup() {
    return json(200, presentCommercialSetup(await getCommercialSetup()));
  },

  async updateCommercialSetup({ app, auth, body }) {
    return json(200, presentCommercialSetup(await updateCommercialSetup(app, body, staffActor(auth))));
  },
} satisfies Partial<OperationHandlers>;
