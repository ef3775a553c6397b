import type { ModuleRecord } from '../record.ts';
import { priceAdjustment, subscribers } from './adjustment.ts';
import { handlers } from './handlers.ts';

/** The `promoCodes` module's record (server/modules/record.ts): what the rest of the server knows of it. */
export const record = { tag: 'promoCodes', handlers, priceAdjustments: [priceAdjustment], subscribers } satisfies ModuleRecord;
