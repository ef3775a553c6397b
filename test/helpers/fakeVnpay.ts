import { createHmac } from 'node:crypto';
import { answerJson, startFakePeer } from './fakePeer.ts';

/**
 * A local stand-in for VNPay (payment page and merchant API), for tests. It shares no code with
 * server/platform/integrations/vnpay.ts: the signing rules are written again here from VNPay's documentation, so a
 * mistake in the client is not mirrored by the fake.
 *
 * - `GET /paymentv2/vpcpay.html?…`: checks the payment URL's signature and answers `{ valid, params }`.
 * - `POST /merchant_webapi/api/transaction`: recomputes the request's `|`-joined signature (refund or
 *   querydr), records whether it matched, and answers a response signed the documented way (or, per `mode`,
 *   a wrongly signed one, HTTP 500, a non-JSON body, or no answer at all).
 * - `signCallback(params)`: the query string VNPay would send to the return and IPN URLs.
 */
export type FakeVnpayMode = 'ok' | 'bad-response-hash' | 'http-500' | 'not-json' | 'hang' | 'refund-declined';

export interface FakeApiRequest {
  body: Record<string, string>;
  /** The request's vnp_SecureHash matched the fake's own computation. */
  checksumOk: boolean;
}

const hmac = (secret: string, data: string) => createHmac('sha512', secret).update(Buffer.from(data, 'utf-8')).digest('hex');

/** VNPay's sample: sort keys, `encodeURIComponent` key and value, `%20` → `+`, join with `&`. */
export function vnpaySignData(params: Record<string, string>): string {
  return Object.keys(params)
    .filter((k) => k !== 'vnp_SecureHash' && k !== 'vnp_SecureHashType')
    .sort()
    .map((k) => `${encodeURIComponent(k)}=${encodeURIComponent(params[k]).replace(/%20/g, '+')}`)
    .join('&');
}

const REFUND_REQUEST = 'vnp_RequestId|vnp_Version|vnp_Command|vnp_TmnCode|vnp_TransactionType|vnp_TxnRef|vnp_Amount|vnp_TransactionNo|vnp_TransactionDate|vnp_CreateBy|vnp_CreateDate|vnp_IpAddr|vnp_OrderInfo';
const QUERYDR_REQUEST = 'vnp_RequestId|vnp_Version|vnp_Command|vnp_TmnCode|vnp_TxnRef|vnp_TransactionDate|vnp_CreateDate|vnp_IpAddr|vnp_OrderInfo';
const REFUND_RESPONSE = 'vnp_ResponseId|vnp_Command|vnp_ResponseCode|vnp_Message|vnp_TmnCode|vnp_TxnRef|vnp_Amount|vnp_BankCode|vnp_PayDate|vnp_TransactionNo|vnp_TransactionType|vnp_TransactionStatus|vnp_OrderInfo';
const QUERYDR_RESPONSE = `${REFUND_RESPONSE}|vnp_PromotionCode|vnp_PromotionAmount`;

const joined = (fields: string, data: Record<string, string>) =>
  fields
    .split('|')
    .map((f) => data[f] ?? '')
    .join('|');

/** Decodes a raw query string the way a form decoder does (`+` is a space). */
function parseRawQuery(raw: string): Array<[string, string]> {
  return raw
    .split('&')
    .filter(Boolean)
    .map((pair) => {
      const at = pair.indexOf('=');
      const dec = (s: string) => decodeURIComponent(s.replace(/\+/g, ' '));
      return at < 0 ? [dec(pair), ''] : [dec(pair.slice(0, at)), dec(pair.slice(at + 1))];
    });
}

export async function startFakeVnpay(options: { tmnCode: string; secret: string }) {
  const apiRequests: FakeApiRequest[] = [];
  const pageRequests: string[] = [];
  const state = { mode: 'ok' as FakeVnpayMode, transactionNo: '14226112', payDate: '20261123210501' };

  function answer(command: string, body: Record<string, string>): Record<string, string> {
    const declined = state.mode === 'refund-declined';
    const response: Record<string, string> = {
      vnp_ResponseId: `r${Date.now()}`,
      vnp_Command: command,
      vnp_ResponseCode: declined ? '95' : '00',
      vnp_Message: declined ? 'Giao dich nay da duoc hoan tien' : 'Success',
      vnp_TmnCode: options.tmnCode,
      vnp_TxnRef: body.vnp_TxnRef,
      vnp_Amount: command === 'refund' ? body.vnp_Amount : '5000000',
      vnp_BankCode: 'NCB',
      vnp_PayDate: state.payDate,
      vnp_TransactionNo: state.transactionNo,
      vnp_TransactionType: command === 'refund' ? body.vnp_TransactionType : '01',
      vnp_TransactionStatus: command === 'refund' ? '05' : '00',
      vnp_OrderInfo: body.vnp_OrderInfo,
    };
    if (command === 'querydr') Object.assign(response, { vnp_PromotionCode: '', vnp_PromotionAmount: '' });
    response.vnp_SecureHash = hmac(options.secret, joined(command === 'refund' ? REFUND_RESPONSE : QUERYDR_RESPONSE, response));
    if (state.mode === 'bad-response-hash') response.vnp_SecureHash = hmac('not-the-secret', joined(REFUND_RESPONSE, response));
    return response;
  }

  const peer = await startFakePeer<undefined>({
    record: () => undefined,
    answer(req, res) {
      const [path, raw = ''] = req.url.split(/\?(.*)/s);
      if (req.method === 'GET' && path === '/paymentv2/vpcpay.html') {
        pageRequests.push(raw);
        const params = Object.fromEntries(parseRawQuery(raw));
        const valid = params.vnp_SecureHash === hmac(options.secret, vnpaySignData(params));
        return answerJson(res, 200, { valid, params });
      }
      if (req.method === 'POST' && path === '/merchant_webapi/api/transaction') {
        // an empty or unreadable body is recorded as an empty one
        const body: Record<string, string> = req.json && typeof req.json === 'object' ? req.json : {};
        const fields = body.vnp_Command === 'refund' ? REFUND_REQUEST : QUERYDR_REQUEST;
        const checksumOk = body.vnp_SecureHash === hmac(options.secret, joined(fields, body));
        apiRequests.push({ body, checksumOk });
        if (state.mode === 'hang') return; // never answers; closed by close()
        if (state.mode === 'http-500') return void res.writeHead(500).end('Internal Server Error');
        if (state.mode === 'not-json') return void res.writeHead(200, { 'content-type': 'text/html' }).end('<html>maintenance</html>');
        let reply: Record<string, string>;
        if (!checksumOk) {
          reply = { vnp_ResponseId: 'r0', vnp_Command: body.vnp_Command, vnp_ResponseCode: '97', vnp_Message: 'Invalid Checksum', vnp_TmnCode: options.tmnCode };
          reply.vnp_SecureHash = hmac(options.secret, joined(REFUND_RESPONSE, reply));
        } else reply = answer(body.vnp_Command, body);
        return answerJson(res, 200, reply);
      }
      res.writeHead(404).end();
    },
  });
  const base = peer.base;

  return {
    base,
    paymentUrl: `${base}/paymentv2/vpcpay.html`,
    apiUrl: `${base}/merchant_webapi/api/transaction`,
    apiRequests,
    pageRequests,
    state,
    /** The parameters of a return/IPN call, signed as VNPay signs them (as a parsed query object). */
    signCallback(params: Record<string, string>, secret = options.secret): Record<string, string> {
      return { ...params, vnp_SecureHash: hmac(secret, vnpaySignData(params)) };
    },
    close: peer.close,
  };
}

export type FakeVnpay = Awaited<ReturnType<typeof startFakeVnpay>>;
