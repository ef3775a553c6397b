/**
 * The `inquiries` module's door: what other modules may use. It imports no handler and no operation's command; its
 * record is module.ts. The exports module (issue 36 §2) exports inquiries with the staff list's own filters.
 */
export { filterInquiries, type InquiryFilters } from './queries.ts';
