/**
 * The `analytics` module's door: what other modules may use (types, reads, services). It imports no handler and no
 * operation's command; its record is module.ts.
 */
export { queueLeadConversion } from './meta.ts';
export { MetaCapiEvent } from './models.ts';
