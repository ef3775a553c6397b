/** A timestamp as the contract's ISO string (`null` stays `null`): presenters never hand out Date objects. */
export const iso = (value: Date | string | null | undefined): string | null => (value ? new Date(value).toISOString() : null);
