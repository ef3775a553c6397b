import type { HandlerMap, OperationHandlers } from '../http/handler.ts';
import { authHandlers } from './accounts/authHandlers.ts';
import { sudoAccountHandlers } from './accounts/sudoHandlers.ts';
import { apiKeyHandlers } from './apiKeys/handlers.ts';
import { maintenanceHandlers } from './maintenance/handlers.ts';
import { systemHandlers } from './system/handlers.ts';

/** operationId → handler, for every operation in openapi.yaml (checked by the compiler and again at boot). */
const typed: OperationHandlers = {
  ...systemHandlers,
  ...authHandlers,
  ...sudoAccountHandlers,
  ...apiKeyHandlers,
  ...maintenanceHandlers,
};

export const handlers = typed as unknown as HandlerMap;
