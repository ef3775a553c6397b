import type { TransitionContext } from '../booking/lifecycle.ts';

/**
 * What other modules attach to a payment's outcome: a referral commission when an attributed reservation's
 * payment succeeds (issue 12), the ad platform's `Purchase` conversion (issue 11), voiding commissions on a full
 * refund. The payments module calls `runPaymentHooks` inside the command's transaction, after the payment row
 * changed; a hook acts through `ctx.trx` only and defers outside work to `ctx.afterCommit`. Each hook must be
 * idempotent (a replayed callback does not call it again, but a retried job may).
 */
export type PaymentOutcome = 'SUCCEEDED' | 'FAILED' | 'PARTIALLY_REFUNDED' | 'REFUNDED';

export interface PaymentHookContext extends TransitionContext {
  outcome: PaymentOutcome;
  paymentId: string;
  reservationId: string;
  gateway: 'VNPAY' | 'BANK_TRANSFER' | 'CASH' | 'CARD_ON_SITE';
  amountVnd: number;
  refundedVnd: number;
}

export type PaymentHook = (context: PaymentHookContext) => Promise<void>;

const hooks = new Map<string, { outcome: PaymentOutcome; hook: PaymentHook }>();

/** Registers `hook` for `outcome` once per name (at import); returns its removal (tests). */
export function onPaymentOutcome(outcome: PaymentOutcome, name: string, hook: PaymentHook): () => void {
  if (hooks.has(name)) throw new Error(`payment hook ${name} is already registered`);
  const entry = { outcome, hook };
  hooks.set(name, entry);
  return () => {
    if (hooks.get(name) === entry) hooks.delete(name);
  };
}

/** Runs the hooks registered for `context.outcome`, in registration order. */
export async function runPaymentHooks(context: PaymentHookContext): Promise<void> {
  for (const { outcome, hook } of hooks.values()) if (outcome === context.outcome) await hook(context);
}
