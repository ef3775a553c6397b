import type { Knex } from 'knex';
import { Conflict, NotFound } from '../../platform/http/problem.ts';
import { likeContaining } from '../shows/index.ts';
import { Inquiry, InquiryFollowUp, type InquiryStatus, type InquiryType } from './models.ts';

/**
 * Inquiries (issue 13; DOMAIN.md "Guests and CRM"): a guest's request for a private event, a group, a corporate
 * booking or anything else. Create is public (./commands/createInquiry.ts, bot-checked); staff list, read,
 * move them through NEW → IN_PROGRESS → FOLLOWED_UP → CLOSED, assign them, follow up by e-mail and archive
 * (./commands/). This file holds the reads.
 */

export const NoSuchInquiry = () => NotFound('No such inquiry.');
export const InquiryArchived = () => Conflict('inquiry_archived', 'The inquiry is archived; it cannot be changed.');

export async function findInquiryOrFail(knex: Knex, id: string): Promise<Inquiry> {
  const inquiry = await Inquiry.query(knex).findById(id);
  if (!inquiry) throw NoSuchInquiry();
  return inquiry;
}

/** The inquiry row locked for the rest of the transaction (404 when there is none). */
export async function lockInquiry(trx: Knex.Transaction, id: string): Promise<Inquiry> {
  const inquiry = await Inquiry.query(trx).findById(id).forUpdate();
  if (!inquiry) throw NoSuchInquiry();
  return inquiry;
}

export async function followUpsOf(knex: Knex, inquiryId: string): Promise<InquiryFollowUp[]> {
  return InquiryFollowUp.query(knex).where('inquiry_id', inquiryId).orderBy([{ column: 'created_at', order: 'asc' }, { column: 'id', order: 'asc' }]);
}

export interface InquiryFilters {
  status?: InquiryStatus;
  type?: InquiryType;
  assigneeId?: string;
  q?: string;
  limit: number;
  offset: number;
}

/** Newest first; archived ones only when asked for by status. */
export async function listInquiries(knex: Knex, filters: InquiryFilters): Promise<{ items: Inquiry[]; total: number }> {
  const base = Inquiry.query(knex);
  if (filters.status) base.where('status', filters.status);
  else base.whereNot('status', 'ARCHIVED');
  if (filters.type) base.where('type', filters.type);
  if (filters.assigneeId) base.where('assignee_id', filters.assigneeId);
  const q = filters.q?.trim();
  if (q) {
    const pattern = likeContaining(q);
    base.where((w) => w.where('name', 'ilike', pattern).orWhere('email', 'ilike', pattern).orWhere('phone', 'ilike', pattern).orWhere('message', 'ilike', pattern));
  }
  const [items, total] = await Promise.all([
    base.clone().orderBy([{ column: 'created_at', order: 'desc' }, { column: 'id', order: 'asc' }]).limit(filters.limit).offset(filters.offset),
    base.clone().resultSize(),
  ]);
  return { items, total };
}

/**
 * A customer merge's part here (the customers module's mergeCustomers, in its transaction): every inquiry of the
 * duplicate moves to the survivor.
 */
export async function moveCustomerInquiries(trx: Knex.Transaction, fromCustomerId: string, toCustomerId: string): Promise<void> {
  await trx('inquiries').where({ customer_id: fromCustomerId }).update({ customer_id: toCustomerId });
}
