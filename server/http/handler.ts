import type Koa from 'koa';
import type { Logger } from '../logger.ts';
import type { AppContext } from '../context.ts';
import type { AppState, AuthContext } from './state.ts';

/** What a handler receives: validated (coerced, defaulted) input, the caller, and the app's services. */
export interface Call<P = Record<string, any>, Q = Record<string, any>, B = any> {
  operationId: string;
  params: P;
  query: Q;
  body: B;
  auth: AuthContext;
  log: Logger;
  requestId: string;
  app: AppContext;
  /** For cookies, the peer address and the user agent; handlers set the response only through their Reply. */
  koa: Koa.ParameterizedContext<AppState>;
}

export interface Reply {
  status: number;
  body?: unknown;
  /** Defaults to application/json when there is a body. */
  contentType?: string;
  headers?: Record<string, string>;
}

export type Handler = (call: Call) => Promise<Reply> | Reply;
export type HandlerMap = Record<string, Handler>;

export const json = (status: number, body: unknown, headers?: Record<string, string>): Reply => ({ status, body, headers });
export const noContent = (headers?: Record<string, string>): Reply => ({ status: 204, headers });
