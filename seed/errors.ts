/** What stops the seeder: a request the server refused, worded for the person running it. */
export class SeedError extends Error {}

/** `<status> <problem as JSON>` of a refused request. */
export const describe = (status: number, error: unknown) => `${status} ${JSON.stringify(error)}`;
