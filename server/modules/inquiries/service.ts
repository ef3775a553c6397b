import type { Knex } from 'knex';
import type { AppContext } from '../../platform/context.ts';
import { addressKey, consumeOrThrow, RateLimit, rateLimitStoreFor } from '../../platform/http/rateLimit.ts';
import { Conflict, NotFound, Unprocessable } from '../../platform/http/problem.ts';
import { likeContaining } from '../shows/index.ts';

/**
 * Inquiries (issue 13; DOMAIN.md "Guests and CRM"): a guest's request for a private event, a group, a corporate
 * booking or anything else. Create is public (./commands/submitInquiry.ts, bot-checked); staff list, read,
 * move them through NEW → IN_PROGRESS → FOLLOWED_UP → CLOSED, assign them, follow up by e-mail and archive.
 */

export const INQUIRY_TYPES = ['PRIVATE_EVENT', 'GROUP_BOOKING', 'CORPORATE', 'GENERAL'] as const;
export type InquiryType = (typeof INQUIRY_TYPES)[number];
export const INQUIRY_STATUSES = ['NEW', 'IN_PROGRESS', 'FOLLOWED_UP', 'CLOSED', 'ARCHIVED'] as const;
export type InquiryStatus = (typeof INQUIRY_STATUSES)[number];

export interface InquiryRow {
  id: string;
  type: InquiryType;
  status: InquiryStatus;
  customer_id: string | null;
  name: string;
  email: string;
  phone: string | null;
  locale: string | null;
  preferred_date: string | Date | null;
  guest_count: number | null;
  message: string;
  assignee_id: string | null;
  botcheck_verified: boolean;
  archived_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

export interface FollowUpRow {
  id: string;
  email_message_id: string | null;
  subject: string;
  message: string;
  sent_by: string | null;
  created_at: Date;
}

const NoSuchInquiry = () => NotFound('No such inquiry.');

export async function findInquiryOrFail(knex: Knex, id: string): Promise<InquiryRow> {
  const row = await knex('inquiries').where({ id }).first();
  if (!row) throw NoSuchInquiry();
  return row as InquiryRow;
}

export async function followUpsOf(knex: Knex, inquiryId: string): Promise<FollowUpRow[]> {
  return knex('inquiry_follow_ups').where({ inquiry_id: inquiryId }).orderBy([{ column: 'created_at', order: 'asc' }, { column: 'id', order: 'asc' }]);
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
export async function listInquiries(knex: Knex, filters: InquiryFilters) {
  const base = knex('inquiries');
  if (filters.status) base.where('status', filters.status);
  else base.whereNot('status', 'ARCHIVED');
  if (filters.type) base.where('type', filters.type);
  if (filters.assigneeId) base.where('assignee_id', filters.assigneeId);
  const q = filters.q?.trim();
  if (q) {
    const pattern = likeContaining(q);
    base.where((w) => w.where('name', 'ilike', pattern).orWhere('email', 'ilike', pattern).orWhere('phone', 'ilike', pattern).orWhere('message', 'ilike', pattern));
  }
  const [items, counted] = await Promise.all([
    base.clone().select('*').orderBy([{ column: 'created_at', order: 'desc' }, { column: 'id', order: 'asc' }]).limit(filters.limit).offset(filters.offset),
    base.clone().count({ n: '*' }).first(),
  ]);
  return { items: items as InquiryRow[], total: Number((counted as { n: string | number } | undefined)?.n ?? 0) };
}

export interface InquiryUpdate {
  status?: Exclude<InquiryStatus, 'ARCHIVED'>;
  assigneeId?: string | null;
}

/** Status and assignee; an archived inquiry is read-only (409), an assignee must be an account (422). */
export async function updateInquiry(knex: Knex, id: string, input: InquiryUpdate): Promise<InquiryRow> {
  return knex.transaction(async (trx) => {
    const current = (await trx('inquiries').where({ id }).forUpdate().first()) as InquiryRow | undefined;
    if (!current) throw NoSuchInquiry();
    if (current.status === 'ARCHIVED') throw InquiryArchived();
    if (input.assigneeId) {
      const account = await trx('accounts').where({ id: input.assigneeId }).first('id');
      if (!account) throw Unprocessable('unknown_assignee', 'No such account.', [{ path: 'body/assigneeId', message: 'is not an account', code: 'unknown_assignee' }]);
    }
    const columns: Record<string, unknown> = { updated_at: new Date() };
    if (input.status !== undefined) columns.status = input.status;
    if (input.assigneeId !== undefined) columns.assignee_id = input.assigneeId;
    const [row] = await trx('inquiries').where({ id }).update(columns).returning('*');
    return row as InquiryRow;
  });
}

export const InquiryArchived = () => Conflict('inquiry_archived', 'The inquiry is archived; it cannot be changed.');

/** Archive = ARCHIVED (idempotent). */
export async function archiveInquiry(knex: Knex, id: string, now = new Date()): Promise<void> {
  const current = await knex('inquiries').where({ id }).first('status');
  if (!current) throw NoSuchInquiry();
  if (current.status === 'ARCHIVED') return;
  await knex('inquiries').where({ id }).update({ status: 'ARCHIVED', archived_at: now, updated_at: now });
}

const limitsByApp = new WeakMap<AppContext, RateLimit>();

/** Inquiries: 10 per address per 10 minutes. */
export async function throttleInquiry(app: AppContext, ip: string): Promise<void> {
  let limit = limitsByApp.get(app);
  if (!limit) {
    limit = new RateLimit({ name: 'inquiry-address', points: 10, windowSeconds: 600 }, rateLimitStoreFor(app.db));
    limitsByApp.set(app, limit);
  }
  await consumeOrThrow([[limit, addressKey(ip)]], 'Too many inquiries from this address; try again later.');
}
