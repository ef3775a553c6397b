import type Koa from 'koa';
import type { operations } from '../../sdk/schema.d.ts';
import type { AppContext } from '../context.ts';
import type { Logger } from '../logger.ts';
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

export interface Reply<S extends number = number, B = unknown> {
  status: S;
  body?: B;
  /** Defaults to application/json when there is a body. */
  contentType?: string;
  headers?: Record<string, string>;
}

// ---- Types taken from the contract (sdk/schema.d.ts): a contract change that breaks a handler fails tsc. ----

export type OperationId = keyof operations;
type Parameters<K extends OperationId> = operations[K]['parameters'];
type Group<K extends OperationId, G extends 'path' | 'query'> = Parameters<K> extends { [key in G]?: infer T } ? ([T] extends [never] ? Record<string, never> : NonNullable<T>) : Record<string, never>;
type JsonBody<K extends OperationId> = operations[K] extends { requestBody: { content: { 'application/json': infer B } } }
  ? B
  : operations[K] extends { requestBody?: { content: { 'application/json': infer B } } }
    ? B | undefined
    : undefined;
type Content<R> = R extends { content: infer C } ? C[keyof C] : undefined;
type Responses<K extends OperationId> = operations[K]['responses'];
/** The successful replies an operation declares: `{ status: 200, body: Account } | { status: 204 }` … */
export type OperationReply<K extends OperationId> = {
  [S in keyof Responses<K>]: S extends number ? (S extends 200 | 201 | 202 | 204 ? Reply<S, Content<Responses<K>[S]>> : never) : never;
}[keyof Responses<K>];

export type OperationHandler<K extends OperationId> = (
  call: Call<Group<K, 'path'>, Group<K, 'query'>, JsonBody<K>>,
) => Promise<OperationReply<K>> | OperationReply<K>;

/** Every operation of the contract mapped to its handler: the compiler reports a missing or misnamed one. */
export type OperationHandlers = { [K in OperationId]: OperationHandler<K> };

export type Handler = (call: Call) => Promise<Reply> | Reply;
export type HandlerMap = Record<string, Handler>;

export const json = <S extends number, B>(status: S, body: B, headers?: Record<string, string>): Reply<S, B> => ({ status, body, headers });
export const noContent = (headers?: Record<string, string>): Reply<204, never> => ({ status: 204, headers });
