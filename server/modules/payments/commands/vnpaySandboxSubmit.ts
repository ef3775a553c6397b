import type { AppContext } from '../../../platform/context.ts';
import { completeSandboxPayment, sandboxSecret, type SandboxOutcome, type SandboxRequest } from '../sandbox.ts';
import { vnpayIpn } from './vnpayIpn.ts';

/**
 * `vnpaySandboxSubmit` (development sandbox): a button of the simulated pay page. The sandbox delivers VNPay's
 * signed IPN by running the IPN's own command (its unit of work: the real verification and effects), then tells
 * where to send the browser (the signed return URL). Logs `VNPay sandbox: payment completed`.
 */
export async function vnpaySandboxSubmit(app: AppContext, request: Extract<SandboxRequest, { ok: true }>, outcome: SandboxOutcome, log: Pick<AppContext['logger'], 'info'>) {
  const done = await completeSandboxPayment(app, sandboxSecret(app.config), request, outcome, vnpayIpn);
  log.info({ txnRef: request.txnRef, responseCode: done.responseCode, ipn: done.ipn.RspCode }, 'VNPay sandbox: payment completed');
  return done;
}
