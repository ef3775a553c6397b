import type { OperationHandlers } from '../../platform/http/handler.ts';
import { json } from '../../platform/http/handler.ts';
import { presentCommercialSetup } from './presenters.ts';
import { getCommercialSetup, updateCommercialSetup } from './service.ts';

export const handlers = {
  async getCommercialSetup() {
    return json(200, presentCommercialSetup(await getCommercialSetup()));
  },

  async updateCommercialSetup({ body }) {
    return json(200, presentCommercialSetup(await updateCommercialSetup(body)));
  },
} satisfies Partial<OperationHandlers>;
