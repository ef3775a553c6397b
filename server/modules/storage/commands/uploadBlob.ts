import { storeBlob } from '../storeBlob.ts';

/**
 * `uploadBlob` (Staff+): stores the bytes, checked against their declared type, and their row. The write itself is
 * ../storeBlob.ts, which other modules reach through this module's index.ts (a referral link's sticker).
 */
export const uploadBlob = storeBlob;
