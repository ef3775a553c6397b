import type { Knex } from 'knex';
import { NotFound, Unprocessable, type FieldError } from '../../platform/http/problem.ts';
import { isUniqueViolation } from '../../platform/db/uniqueViolation.ts';
import { Show, type ShowStatus } from './models.ts';

export interface ShowFilters {
  status?: ShowStatus;
  search?: string;
  limit: number;
  offset: number;
}

/** `%`, `_` and `\` taken literally in an ILIKE pattern (backslash is PostgreSQL's default escape). */
export const likeContaining = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** Shows by sort order, then code, then id; `search` in the code, slug or a title in any locale. */
export async function listShows(filters: ShowFilters): Promise<{ items: Show[]; total: number }> {
  const base = Show.query();
  if (filters.status) base.where('status', filters.status);
  if (filters.search) {
    const pattern = likeContaining(filters.search);
    base.where((q) =>
      q
        .where('code', 'ilike', pattern)
        .orWhere('slug', 'ilike', pattern)
        .orWhereRaw('exists (select 1 from jsonb_each_text(shows.title) as t where t.value ilike ?)', [pattern]),
    );
  }
  const [items, total] = await Promise.all([
    base.clone().orderBy([{ column: 'sort_order' }, { column: 'code' }, { column: 'id' }]).limit(filters.limit).offset(filters.offset),
    base.clone().resultSize(),
  ]);
  return { items, total };
}

export async function findShowOrFail(id: string, trx?: Knex.Transaction, options: { forUpdate?: boolean } = {}): Promise<Show> {
  const query = Show.query(trx).findById(id);
  if (options.forUpdate) query.forUpdate();
  const show = await query;
  if (!show) throw NotFound('No such show.');
  return show;
}

/** Every image must be a stored blob whose object still exists: 422 `unknown_blob` naming each that is not. */
export async function assertImageBlobs(ids: readonly string[] | undefined, trx: Knex.Transaction): Promise<void> {
  if (!ids?.length) return;
  const found = new Set(
    (await trx('storage_blobs').whereIn('id', [...ids]).whereNull('object_deleted_at').select('id')).map((row: { id: string }) => row.id),
  );
  const errors: FieldError[] = ids.flatMap((id, index) => (found.has(id) ? [] : [{ path: `body/imageBlobIds/${index}`, message: 'no such blob (or its object was deleted)', code: 'unknown_blob' }]));
  if (errors.length) throw Unprocessable('unknown_blob', 'An image blob does not exist.', errors);
}

/**
 * The column a unique violation was about (`code`, `slug`), from the constraint's name (`<table>_<column>_unique`,
 * knex's naming); undefined for any other error. Callers turn it into 409 `<column>_taken`: the unique index is
 * the only check that holds under concurrency, so nobody looks the value up first.
 */
export function takenColumn(err: unknown, table: string): string | undefined {
  if (!isUniqueViolation(err)) return undefined;
  const e = err as { constraint?: string; nativeError?: { constraint?: string } };
  const constraint = e.constraint ?? e.nativeError?.constraint ?? '';
  const match = new RegExp(`^${table}_(.+)_unique$`).exec(constraint);
  return match ? match[1] : 'code';
}
