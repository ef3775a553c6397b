/** A referral code as stored and looked up: trimmed, upper case. */
export const normalizeCode = (code: string) => code.trim().toUpperCase();
