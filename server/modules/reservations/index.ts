import type { ModuleRecord } from '../record.ts';
import { eventCancelled } from './eventCancellation.ts';
import { handlers } from './handlers.ts';

/** The `reservations` module's record (server/modules/record.ts): what the rest of the server knows of it. */
export const record = { tag: 'reservations', handlers, subscribers: [eventCancelled] } satisfies ModuleRecord;
