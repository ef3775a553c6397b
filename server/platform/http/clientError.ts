import { randomUUID } from 'node:crypto';
import type http from 'node:http';
import type { Duplex } from 'node:stream';
import type { Logger } from '../logger.ts';
import { PROBLEM_TYPE_BASE } from './errors.ts';
import type { GenericProblemCode } from './problemCodes.ts';

interface ParserError extends Error {
  code?: string;
  /** Set by Node for errors of its HTTP parser. */
  bytesParsed?: number;
}

/** The answer for a parser error code: 431 for oversized headers, 408 for a request that took too long, else 400. */
function describeParserError(code: string | undefined): { status: number; reason: string; code: GenericProblemCode; detail: string } {
  switch (code) {
    case 'HPE_HEADER_OVERFLOW':
      return { status: 431, reason: 'Request Header Fields Too Large', code: 'header_too_large', detail: 'The request line or headers are too large.' };
    case 'ERR_HTTP_REQUEST_TIMEOUT':
    case 'ERR_HTTP_HEADERS_TIMEOUT':
      return { status: 408, reason: 'Request Timeout', code: 'request_timeout', detail: 'The request was not received in time.' };
    default:
      return { status: 400, reason: 'Bad Request', code: 'bad_request', detail: 'The request is not valid HTTP/1.1.' };
  }
}

/**
 * `http.Server`'s `clientError` hook: a request Node's HTTP parser refuses (bad header folding, a bad
 * Content-Length, oversized headers, …) never reaches Koa, and Node's default answer has no body. Answer it as
 * application/problem+json like every other error, written straight to the socket (there is no response object),
 * and close the connection: after a parse error nothing more on it can be trusted.
 * Install on every server that serves the app: `server.on('clientError', clientErrorHandler(logger))`.
 */
export function clientErrorHandler(logger?: Logger): (err: ParserError, socket: Duplex) => void {
  return (err, socket) => {
    // The peer went away, or a response is already under way on this socket: nothing sensible can be written.
    const inFlight = (socket as Duplex & { _httpMessage?: http.ServerResponse })._httpMessage;
    if (err.code === 'ECONNRESET' || !socket.writable || inFlight?.headersSent) {
      socket.destroy();
      return;
    }
    const answer = describeParserError(err.code);
    const requestId = randomUUID();
    logger?.info({ requestId, code: err.code, status: answer.status }, 'request refused by the HTTP parser');
    const body = JSON.stringify({
      type: PROBLEM_TYPE_BASE + answer.code,
      title: answer.reason,
      status: answer.status,
      code: answer.code,
      detail: answer.detail,
      requestId,
    });
    socket.end(
      `HTTP/1.1 ${answer.status} ${answer.reason}\r\n` +
        'Content-Type: application/problem+json; charset=utf-8\r\n' +
        `Content-Length: ${Buffer.byteLength(body)}\r\n` +
        `x-request-id: ${requestId}\r\n` +
        'Connection: close\r\n' +
        '\r\n' +
        body,
    );
  };
}
