import type { LocalizedText } from '../../domain/localized.ts';
import { UnprocessableFields, type FieldError } from '../../platform/http/problem.ts';
import type { BookingPath, OfferStatus } from './models.ts';

/** The offer's pure rules: an entry's stored fields with their defaults, and the ranges its CHECKs relate. */

/** What a create or a seed entry sends, before its defaults (the contract's). */
export interface OfferInput {
  name: LocalizedText;
  description?: LocalizedText;
  bookingPath: BookingPath;
  experienceType: string;
  pricePerGuestVnd: number;
  minGuests?: number;
  maxGuests?: number;
  salesStartsAt?: string | null;
  salesEndsAt?: string | null;
  status?: OfferStatus;
  sortOrder?: number;
}

/** An offer's stored fields (all but code and show) from a create or seed entry, every omitted one its default. */
export function offerFields(input: OfferInput) {
  return {
    name: input.name,
    description: input.description ?? {},
    bookingPath: input.bookingPath,
    experienceType: input.experienceType,
    pricePerGuestVnd: input.pricePerGuestVnd,
    minGuests: input.minGuests ?? 1,
    maxGuests: input.maxGuests ?? 10,
    salesStartsAt: input.salesStartsAt ? new Date(input.salesStartsAt) : null,
    salesEndsAt: input.salesEndsAt ? new Date(input.salesEndsAt) : null,
    status: input.status ?? 'ACTIVE',
    sortOrder: input.sortOrder ?? 0,
  };
}

/** The fields the database's CHECKs relate to each other, as the offer would be after the write. */
export interface OfferRanges {
  minGuests: number;
  maxGuests: number;
  salesStartsAt: Date | string | null | undefined;
  salesEndsAt: Date | string | null | undefined;
}

/**
 * `minGuests` ≤ `maxGuests` (422 `guest_range`) and `salesStartsAt` < `salesEndsAt` (422 `sales_window`),
 * checked here so the CHECK constraints never turn a bad request into a 500. `sent` names the fields the caller
 * sent: the error points at the one they can change.
 */
export function rangeErrors(ranges: OfferRanges, prefix: string, sent: (field: string) => boolean = () => true): FieldError[] {
  const errors: FieldError[] = [];
  if (ranges.minGuests > ranges.maxGuests) {
    const field = sent('maxGuests') ? 'maxGuests' : 'minGuests';
    errors.push({ path: `${prefix}/${field}`, message: `minGuests (${ranges.minGuests}) must not exceed maxGuests (${ranges.maxGuests})`, code: 'guest_range' });
  }
  if (ranges.salesStartsAt && ranges.salesEndsAt && new Date(ranges.salesStartsAt) >= new Date(ranges.salesEndsAt)) {
    const field = sent('salesEndsAt') ? 'salesEndsAt' : 'salesStartsAt';
    errors.push({ path: `${prefix}/${field}`, message: 'salesStartsAt must be before salesEndsAt', code: 'sales_window' });
  }
  return errors;
}

export const invalidOffer = (errors: FieldError[]) => UnprocessableFields('The offer is not acceptable as sent.', errors);

