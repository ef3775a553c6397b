import type { ModuleRecord } from '../record.ts';
import { priceAdjustment } from './attribution.ts';
import { handlers } from './handlers.ts';
import { policy } from './policy.ts';

/** The `referralLinks` module's record (server/modules/record.ts): what the rest of the server knows of it. */
export const record = { tag: 'referralLinks', handlers, policy, priceAdjustments: [priceAdjustment] } satisfies ModuleRecord;
