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
}

/**
 * Narrows `query` (over `inquiries as i`) by the staff list's filters — archived ones only when asked for by
 * status; shared with the exports module's inquiries export (through this module's door).
 */
export function filterInquiries(query: Knex.QueryBuilder, filters: InquiryFilters): Knex.QueryBuilder {
  if (filters.status) query.where('i.status', filters.status);
  else query.whereNot('i.status', 'ARCHIVED');
  if (filters.type) query.where('i.type', filters.type);
  if (filters.assigneeId) query.where('i.assignee_id', filters.assigneeId);
  const q = filters.q?.trim();
  if (q) {
    const pattern = likeContaining(q);
    query.where((w) => w.where('i.name', 'ilike', pattern).orWhere('i.email', 'ilike', pattern).orWhere('i.phone', 'ilike', pattern).orWhere('i.message', 'ilike', pattern));
  }
  return query;
}

/** Newest first, as `filterInquiries` chooses them. */
export async function listInquiries(knex: Knex, filters: InquiryFilters & { limit: number; offset: number }): Promise<{ items: Inquiry[]; total: number }> {
  const matching = () => filterInquiries(knex('inquiries as i'), filters);
  const [rows, counted] = await Promise.all([
    matching()
      .select('i.*')
      .orderBy([{ column: 'i.created_at', order: 'desc' }, { column: 'i.id', order: 'asc' }])
      .limit(filters.limit)
      .offset(filters.offset),
    matching().count({ n: '*' }).first(),
  ]);
  return { items: rows.map((row: Record<string, unknown>) => Inquiry.fromDatabaseJson(row)), total: Number((counted as { n: string | number } | undefined)?.n ?? 0) };
}

/**
 * A customer merge's part here (the customers module's mergeCustomers, in its transaction): every inquiry of the
 * duplicate moves to the survivor.
 */
export async function moveCustomerInquiries(trx: Knex.Transaction, fromCustomerId: string, toCustomerId: string): Promise<void> {
  await trx('inquiries').where({ customer_id: fromCustomerId }).update({ customer_id: toCustomerId });
}
