/**
 * The floor's zones, in the order the floor plan lists them: each of the venue's tables sits in one (the tables
 * module), and a show event's logistics count seats and guests by them (the show events module). A venue rule both
 * read, so it lives below them.
 */
export const TABLE_ZONES = ['STAGE_FRONT', 'VIP', 'MAIN', 'BALCONY'] as const;
export type TableZone = (typeof TABLE_ZONES)[number];
