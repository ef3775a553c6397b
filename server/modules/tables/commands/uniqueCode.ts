import { Conflict } from '../../../platform/http/problem.ts';
import { isUniqueViolation } from '../../../platform/db/uniqueViolation.ts';

export const CodeTaken = () => Conflict('code_taken', 'Another table has this code.');

/** A write whose unique-index violation (the code) becomes 409 `code_taken`. */
export async function uniqueCode<T>(write: () => PromiseLike<T>): Promise<T> {
  try {
    return await write();
  } catch (err) {
    if (isUniqueViolation(err)) throw CodeTaken();
    throw err;
  }
}
