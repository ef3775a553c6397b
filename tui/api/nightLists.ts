import fs from 'node:fs/promises';
import path from 'node:path';
import { unwrap, type Schemas, type VenueClient } from '../../sdk/index.ts';

/**
 * The night's lists of a performance (issue 36 §2) saved to files: the door list and the kitchen list, as the
 * server prints them (PDF) or as a workbook (XLSX).
 */

export type ShowEvent = Schemas['ShowEvent'];
export type NightListKind = 'door-list' | 'kitchen-list';
export type NightListFormat = 'pdf' | 'xlsx';

/** The scheduled performances from `from` (a `YYYY-MM-DD` date; the terminal's today by default), soonest first. */
export async function upcomingPerformances(client: VenueClient, from = localDate(new Date()), limit = 50): Promise<ShowEvent[]> {
  return unwrap(await client.GET('/api/show-events', { params: { query: { from, status: 'SCHEDULED', limit } } })).items;
}

const localDate = (now: Date) => `${now.getFullYear()}-${String(now.getMonth() + 1).padStart(2, '0')}-${String(now.getDate()).padStart(2, '0')}`;

/**
 * The file name the server gave (`filename*`, RFC 5987, else `filename`), reduced to a bare name: a header never
 * writes outside `directory`.
 */
export function attachmentName(disposition: string | null, fallback: string): string {
  const extended = disposition && /filename\*=UTF-8''([^;]+)/i.exec(disposition);
  const plain = disposition && /filename="([^"]+)"/i.exec(disposition);
  let name = fallback;
  try {
    name = extended ? decodeURIComponent(extended[1]) : plain ? plain[1] : fallback;
  } catch {
    name = plain ? plain[1] : fallback;
  }
  const bare = path.basename(name.replace(/\\/g, '/')).replace(/[\u0000-\u001f]/g, '');
  return bare && bare !== '.' && bare !== '..' ? bare : fallback;
}

/** Downloads one list of the performance into `directory`; answers where it went and its size. */
export async function saveNightList(
  client: VenueClient,
  eventId: string,
  kind: NightListKind,
  format: NightListFormat,
  directory: string,
): Promise<{ file: string; bytes: number }> {
  const options = { params: { path: { eventId }, query: { format } }, parseAs: 'arrayBuffer' as const };
  const result =
    kind === 'door-list'
      ? await client.GET('/api/exports/show-events/{eventId}/door-list', options)
      : await client.GET('/api/exports/show-events/{eventId}/kitchen-list', options);
  const body = Buffer.from(unwrap(result) as ArrayBuffer);
  const file = path.join(directory, attachmentName(result.response.headers.get('content-disposition'), `${kind}.${format}`));
  await fs.mkdir(directory, { recursive: true });
  await fs.writeFile(file, body);
  return { file, bytes: body.length };
}
