import type { AppContext } from '../../../platform/context.ts';
import { inUnitOfWork } from '../../../platform/unitOfWork.ts';
import { recordEmail } from '../../email/index.ts';
import { Inquiry, InquiryFollowUp } from '../models.ts';
import { InquiryArchived, lockInquiry } from '../queries.ts';

export interface FollowUpInput {
  subject: string;
  message: string;
}

/**
 * Staff answer an inquiry: in one transaction the inquiry is locked, the e-mail recorded in the ledger (in the
 * guest's locale, linked to its customer), the follow-up row written with the ledger row's id, and a NEW or
 * IN_PROGRESS inquiry becomes FOLLOWED_UP (a CLOSED one stays closed). Archived: 409.
 */
export async function followUpInquiry(app: AppContext, id: string, input: FollowUpInput, sentBy: string): Promise<InquiryFollowUp> {
  return inUnitOfWork({ knex: app.db.knex, logger: app.logger }, async ({ trx }) => {
    const inquiry = await lockInquiry(trx, id);
    if (inquiry.status === 'ARCHIVED') throw InquiryArchived();
    const message = await recordEmail(
      trx,
      {
        template: 'inquiry-follow-up',
        to: inquiry.email,
        locale: inquiry.locale ?? app.config.defaultLocale,
        customerId: inquiry.customerId,
        data: { guestName: inquiry.name, subject: input.subject, message: input.message },
      },
      { enqueue: app.jobs.enqueue.bind(app.jobs), emailFrom: app.config.emailFrom },
    );
    const followUp = await InquiryFollowUp.query(trx).insertAndFetch({ inquiryId: id, emailMessageId: message.id, subject: input.subject, message: input.message, sentBy });
    await Inquiry.query(trx).findById(id).patch({ status: inquiry.status === 'CLOSED' ? 'CLOSED' : 'FOLLOWED_UP' });
    return followUp;
  });
}
