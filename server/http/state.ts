import type { Logger } from '../logger.ts';
import type { AuthContext } from '../auth/context.ts';

export { ANONYMOUS, type AuthContext, type AuthSource } from '../auth/context.ts';

export interface AppState {
  requestId: string;
  log: Logger;
  auth: AuthContext;
  /** Set by the body parser when the request carried a body. */
  hasBody?: boolean;
}
