import { randomInt } from 'node:crypto';
import type { Voucher, VoucherStatus } from './models.ts';

/** Pure helpers of voucher codes and status. */

export const normalizeVoucherCode = (code: string) => code.trim().toUpperCase();

/** No 0/O, 1/I/L, as reservation references: `GV-XXXX-XXXX` (31^8 ≈ 8.5·10^11 codes). */
const ALPHABET = '23456789ABCDEFGHJKMNPQRSTUVWXYZ';
export function newVoucherCode(): string {
  const part = () => Array.from({ length: 4 }, () => ALPHABET[randomInt(ALPHABET.length)]).join('');
  return `GV-${part()}-${part()}`;
}

/** The status a reader sees: an ACTIVE voucher past its expiry is EXPIRED, whether or not anyone wrote it. */
export function effectiveVoucherStatus(voucher: Pick<Voucher, 'status' | 'expiresAt'>, now: Date): VoucherStatus {
  return voucher.status === 'ACTIVE' && new Date(voucher.expiresAt) <= now ? 'EXPIRED' : voucher.status;
}
