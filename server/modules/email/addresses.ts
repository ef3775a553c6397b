/** E-mail addresses as the ledger and the messages write them (pure). */

/** `Venue <no-reply@venue.local>` → `Venue`; a bare address → its domain. */
export function displayName(from: string): string {
  const match = /^\s*"?([^"<]*?)"?\s*</.exec(from);
  return match?.[1]?.trim() || domainOf(from);
}

/** The domain of an address (`Venue <no-reply@venue.local>` → `venue.local`), `localhost` when it has none. */
export function domainOf(address: string): string {
  const match = /@([^>\s]+)>?\s*$/.exec(address);
  return match?.[1] ?? 'localhost';
}
