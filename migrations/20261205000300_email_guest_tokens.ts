import { createCipheriv, randomBytes } from 'node:crypto';
import type { Knex } from 'knex';

/**
 * A guest's token is the guest's alone (issue 32 §3). The e-mail ledger, which staff read, kept the manage-booking
 * link (`#token=<access token>`) and the waiting-list offer link (`&token=<offer token>`) as sent; from now on its
 * snapshots hold a placeholder where a token was (`[guest token removed]`, server/modules/email/guestTokens.ts) and
 * the tokens are kept sealed in `guest_tokens_sealed` only until the row is delivered.
 *
 * Existing rows are redacted the same way: each token in their snapshots becomes its placeholder, and the `.ics`
 * they attached (which linked the manage page with its token) links the page without it. A row still QUEUED keeps
 * its tokens sealed (AES-256-GCM under the database's `reservation-secrets` key, as server/modules/booking/tokens.ts
 * seals them) so its send still carries working links; a sent or failed one keeps none.
 */

const TEMPLATES = ['reservation-confirmation', 'reservation-reminder', 'waitlist-offer'];
/** A `token=` parameter as it stands in a text part or an HTML attribute (`&amp;token=`). */
const TOKEN_PARAMETER = /[?&#;]token=([A-Za-z0-9_%.~-]{16,})/g;
const placeholder = (index: number) => (index === 0 ? '[guest token removed]' : `[guest token ${index + 1} removed]`);

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('email_messages', (t) => {
    // The guest tokens the snapshots' placeholders stand for (a sealed JSON list), until the row is SENT or FAILED.
    t.text('guest_tokens_sealed');
  });

  const rows = (await knex('email_messages')
    .whereIn('template', TEMPLATES)
    .where((q) => q.where('text_body', 'like', '%token=%').orWhere('html_body', 'like', '%token=%'))
    .select('id', 'status', 'subject', 'html_body', 'text_body', 'attachments')) as Array<{
    id: string;
    status: string;
    subject: string;
    html_body: string | null;
    text_body: string | null;
    attachments: Array<{ contentType: string; size: number }> | string;
  }>;
  for (const row of rows) {
    const tokens: string[] = [];
    for (const body of [row.text_body ?? '', row.html_body ?? '']) {
      for (const match of body.matchAll(TOKEN_PARAMETER)) if (!tokens.includes(match[1])) tokens.push(match[1]);
    }
    if (!tokens.length) continue;
    const redact = (text: string | null) => (text === null ? null : tokens.reduce((out, token, index) => out.split(token).join(placeholder(index)), text));
    await knex('email_messages')
      .where({ id: row.id })
      .update({
        subject: redact(row.subject),
        html_body: redact(row.html_body),
        text_body: redact(row.text_body),
        guest_tokens_sealed: row.status === 'QUEUED' ? await seal(knex, JSON.stringify(tokens)) : null,
      });

    // The calendar file linked the manage page with the token: the page alone from now on.
    const descriptors = typeof row.attachments === 'string' ? JSON.parse(row.attachments) : (row.attachments ?? []);
    const calendars = (await knex('email_attachments').where({ message_id: row.id, content_type: 'text/calendar' }).select('id', 'position', 'content')) as Array<{
      id: string;
      position: number;
      content: Uint8Array;
    }>;
    let changed = false;
    for (const calendar of calendars) {
      const before = Buffer.from(calendar.content).toString('utf8');
      const unfolded = before.replace(/\r\n[ \t]/g, '');
      const stripped = tokens.reduce((out, token) => out.split(`#token=${token}`).join('').split(`token=${token}`).join(''), unfolded);
      if (stripped === unfolded) continue;
      const content = Buffer.from(stripped.split('\r\n').map(fold).join('\r\n'), 'utf8');
      await knex('email_attachments').where({ id: calendar.id }).update({ content, size: content.length });
      if (descriptors[calendar.position]) {
        descriptors[calendar.position].size = content.length;
        changed = true;
      }
    }
    if (changed) await knex('email_messages').where({ id: row.id }).update({ attachments: JSON.stringify(descriptors) });
  }
}

export async function down(knex: Knex): Promise<void> {
  // The redacted snapshots stay redacted: the tokens were never the ledger's to keep.
  await knex.schema.alterTable('email_messages', (t) => {
    t.dropColumn('guest_tokens_sealed');
  });
}

/** An iCalendar content line folded at 75 octets (RFC 5545 §3.1), never inside a character. */
function fold(line: string): string {
  const parts: string[] = [];
  let current = '';
  let limit = 75;
  for (const char of line) {
    if (Buffer.byteLength(current + char, 'utf8') > limit) {
      parts.push(current);
      current = '';
      limit = 74; // a continuation line starts with one space
    }
    current += char;
  }
  parts.push(current);
  return parts.join('\r\n ');
}

/** `plaintext` sealed as server/modules/booking/tokens.ts `sealSecret` seals it (its key made here if none yet). */
async function seal(knex: Knex, plaintext: string): Promise<string> {
  const purpose = 'reservation-secrets';
  let row = await knex('sealing_keys').where({ purpose }).first('secret');
  if (!row) {
    await knex('sealing_keys').insert({ purpose, secret: randomBytes(32) }).onConflict('purpose').ignore();
    row = await knex('sealing_keys').where({ purpose }).first('secret');
  }
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', Buffer.from(row.secret), iv);
  const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return [iv, cipher.getAuthTag(), body].map((part) => part.toString('base64url')).join('.');
}
