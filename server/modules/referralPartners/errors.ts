import { Conflict } from '../../platform/http/problem.ts';

export const SlugTaken = () => Conflict('slug_taken', 'Another partner has this public slug.');
export const SLUG_INDEX = 'referral_partners_public_slug_unique';
