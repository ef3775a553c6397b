import type { AppContext } from '../../../platform/context.ts';
import { Unprocessable } from '../../../platform/http/problem.ts';
import { inUnitOfWork } from '../../../platform/unitOfWork.ts';
import { Account } from '../../accounts/index.ts';
import { Inquiry, type InquiryStatus } from '../models.ts';
import { InquiryArchived, lockInquiry } from '../queries.ts';

export interface InquiryUpdate {
  status?: Exclude<InquiryStatus, 'ARCHIVED'>;
  assigneeId?: string | null;
}

/** Status and assignee; an archived inquiry is read-only (409), an assignee must be an account (422). */
export async function updateInquiry(app: AppContext, id: string, input: InquiryUpdate): Promise<Inquiry> {
  return inUnitOfWork({ knex: app.db.knex, logger: app.logger }, async ({ trx }) => {
    const current = await lockInquiry(trx, id);
    if (current.status === 'ARCHIVED') throw InquiryArchived();
    if (input.assigneeId && !(await Account.query(trx).findById(input.assigneeId).select('id'))) {
      throw Unprocessable('unknown_assignee', 'No such account.', [{ path: 'body/assigneeId', message: 'is not an account', code: 'unknown_assignee' }]);
    }
    const changes: Partial<Pick<Inquiry, 'status' | 'assigneeId'>> = {};
    if (input.status !== undefined) changes.status = input.status;
    if (input.assigneeId !== undefined) changes.assigneeId = input.assigneeId;
    return Inquiry.query(trx).patchAndFetchById(id, changes);
  });
}
