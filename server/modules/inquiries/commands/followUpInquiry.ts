import type { AppContext } from '../../../platform/context.ts';
import { NotFound } from '../../../platform/http/problem.ts';
import { recordEmail } from '../../email/index.ts';
import { InquiryArchived, type InquiryRow } from '../service.ts';

export interface FollowUpInput {
  subject: string;
  message: string;
}

/**
 * Staff answer an inquiry: in one transaction the inquiry is locked, the e-mail recorded in the ledger (in the
 * guest's locale, linked to its customer), the follow-up row written with the ledger row's id, and a NEW or
 * IN_PROGRESS inquiry becomes FOLLOWED_UP (a CLOSED one stays closed). Archived: 409.
 */
export async function followUpInquiry(app: AppContext, id: string, input: FollowUpInput, sentBy: string) {
  return app.db.knex.transaction(async (trx) => {
    const inquiry = (await trx('inquiries').where({ id }).forUpdate().first()) as InquiryRow | undefined;
    if (!inquiry) throw NotFound('No such inquiry.');
    if (inquiry.status === 'ARCHIVED') throw InquiryArchived();
    const message = await recordEmail(
      trx,
      {
        template: 'inquiry-follow-up',
        to: inquiry.email,
        locale: inquiry.locale ?? app.config.defaultLocale,
        customerId: inquiry.customer_id,
        data: { guestName: inquiry.name, subject: input.subject, message: input.message },
      },
      { enqueue: app.jobs.enqueue.bind(app.jobs), emailFrom: app.config.emailFrom },
    );
    const [followUp] = await trx('inquiry_follow_ups')
      .insert({ inquiry_id: id, email_message_id: message.id, subject: input.subject, message: input.message, sent_by: sentBy })
      .returning('*');
    const now = new Date();
    const status = inquiry.status === 'CLOSED' ? 'CLOSED' : 'FOLLOWED_UP';
    await trx('inquiries').where({ id }).update({ status, updated_at: now });
    return followUp;
  });
}
