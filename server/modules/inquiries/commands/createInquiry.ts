import type { AppContext } from '../../../platform/context.ts';
import { Problem, ServiceUnavailable } from '../../../platform/http/problem.ts';
import { TurnstileUnavailable, verifyTurnstileToken } from '../../../platform/integrations/turnstile.ts';
import { publish } from '../../../domain/events.ts';
import { inTransition } from '../../../domain/unitOfWork.ts';
import { BUSINESS_EVENTS } from '../../booking/index.ts';
import { upsertCustomer } from '../../booking/index.ts';
import { recordEmail } from '../../email/index.ts';
import { Inquiry, type InquiryType } from '../models.ts';

export interface InquiryInput {
  type: InquiryType;
  name: string;
  email: string;
  phone?: string;
  locale?: string;
  preferredDate?: string;
  guestCount?: number;
  message: string;
  botcheckToken?: string;
}

const TYPE_LABELS: Record<string, Record<InquiryType, string>> = {
  en: { PRIVATE_EVENT: 'Private event', GROUP_BOOKING: 'Group booking', CORPORATE: 'Corporate event', GENERAL: 'General question' },
  vi: { PRIVATE_EVENT: 'Sự kiện riêng', GROUP_BOOKING: 'Đặt chỗ theo nhóm', CORPORATE: 'Sự kiện doanh nghiệp', GENERAL: 'Câu hỏi chung' },
};

const botcheckProblem = (code: 'botcheck_required' | 'botcheck_failed', detail: string) =>
  new Problem(400, code, 'Bot check failed', { detail, errors: [{ path: 'body/botcheckToken', message: detail, code }] });

/**
 * The bot check (spec §5.4, §7): with BOTCHECK_SECRET_KEY set the token is required (400 `botcheck_required`)
 * and must pass Turnstile's siteverify (400 `botcheck_failed`); siteverify unreachable → 503
 * `botcheck_unavailable`. Without the secret the token is optional and not checked. Answers whether it was verified.
 */
async function checkBot(app: AppContext, token: string | undefined, ip: string, idempotencyKey: string | undefined): Promise<boolean> {
  const { botcheckSecretKey, botcheckVerifyUrl, botcheckTimeoutMs, botcheckHostname, botcheckAction } = app.config;
  if (!botcheckSecretKey) return false;
  if (!token) throw botcheckProblem('botcheck_required', 'A bot-check token (botcheckToken) is required.');
  try {
    const verdict = await verifyTurnstileToken(
      { secretKey: botcheckSecretKey, verifyUrl: botcheckVerifyUrl, timeoutMs: botcheckTimeoutMs, expectedHostname: botcheckHostname, expectedAction: botcheckAction },
      token,
      ip,
      idempotencyKey,
    );
    if (!verdict.ok) throw botcheckProblem('botcheck_failed', `The bot check did not pass (${verdict.reason}).`);
    return true;
  } catch (err) {
    if (!(err instanceof TurnstileUnavailable)) throw err;
    app.logger.warn({ err }, 'bot check unavailable; inquiry refused');
    throw ServiceUnavailable('botcheck_unavailable', 'The bot check is unavailable right now; nothing was stored. Try again shortly.');
  }
}

/**
 * A guest's inquiry: the bot check first (nothing is written before it passes), then in one transaction the CRM
 * customer (upserted by e-mail), the inquiry, the acknowledgement to the guest and the notification to
 * VENUE_NOTIFICATIONS_EMAIL (ledger rows; sent by the e-mail job), and `inquiry.received` (the venue's other systems'
 * webhook, issue 36 §3). `inquiry submitted` (with the type only) after the commit.
 */
export async function createInquiry(app: AppContext, input: InquiryInput, ip: string, idempotencyKey?: string): Promise<Inquiry> {
  const verified = await checkBot(app, input.botcheckToken, ip, idempotencyKey);
  const deps = { enqueue: app.jobs.enqueue.bind(app.jobs), emailFrom: app.config.emailFrom };
  return inTransition(app, 'GUEST', async (ctx) => {
    const { trx, afterCommit } = ctx;
    const customerId = await upsertCustomer(trx, { name: input.name, email: input.email, phone: input.phone, locale: input.locale });
    const inquiry = await Inquiry.query(trx).insertAndFetch({
      type: input.type,
      customerId,
      name: input.name.trim(),
      email: input.email.trim(),
      phone: input.phone ?? null,
      locale: input.locale ?? null,
      preferredDate: input.preferredDate ?? null,
      guestCount: input.guestCount ?? null,
      message: input.message,
      botcheckVerified: verified,
    });
    const locale = input.locale ?? app.config.defaultLocale;
    const common = { preferredDate: input.preferredDate ?? null, guestCount: input.guestCount ?? null, message: input.message };
    await recordEmail(
      trx,
      {
        template: 'inquiry-acknowledgement',
        to: inquiry.email,
        locale,
        customerId,
        data: { guestName: inquiry.name, typeLabel: (TYPE_LABELS[locale] ?? TYPE_LABELS.en)[input.type], ...common },
      },
      deps,
    );
    if (app.config.venueNotificationsEmail) {
      await recordEmail(
        trx,
        {
          template: 'inquiry-notification',
          to: app.config.venueNotificationsEmail,
          locale: 'en',
          data: { inquiryId: inquiry.id, type: input.type, guestName: inquiry.name, guestEmail: inquiry.email, guestPhone: inquiry.phone, ...common },
        },
        deps,
      );
    }
    await publish(ctx, 'inquiry.received', {
      inquiryId: inquiry.id,
      type: inquiry.type,
      customerId,
      preferredDate: input.preferredDate ?? null,
      guestCount: inquiry.guestCount,
      locale: inquiry.locale,
    });
    afterCommit(() => {
      if (app.analytics.enabled) app.analytics.capture({ distinctId: `inquiry:${inquiry.id}`, event: BUSINESS_EVENTS.inquirySubmitted, properties: { inquiry_type: input.type } });
    });
    return inquiry;
  });
}
