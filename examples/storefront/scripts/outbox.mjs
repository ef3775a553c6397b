#!/usr/bin/env node
// The development outbox, read (issue 34 §5): without SMTP_URL the API writes every e-mail as an .eml file under
// DATA_DIR/outbox/ (default ./.data/outbox in the backend's checkout). This prints the latest messages, newest
// first: when, to whom, the subject, and every link in the text, decoded (quoted-printable, RFC 2047 subjects), so
// the confirmation's manage-booking link (`…/<locale>/booking/<reference>#token=…`) can be opened in a browser.
//
//   npm run outbox                  # in examples/storefront: the 5 latest messages
//   npm run outbox -- 20            # the 20 latest
//   npm run outbox -- 5 /path/outbox   # another outbox (or set DATA_DIR as the API was started with)
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const count = Number(process.argv[2]) || 5;
const here = path.dirname(fileURLToPath(import.meta.url));
const dir = process.argv[3] ?? (process.env.DATA_DIR ? path.join(path.resolve(here, '../../..', process.env.DATA_DIR), 'outbox') : path.resolve(here, '../../../.data/outbox'));

if (!fs.existsSync(dir)) {
  console.error(`No outbox at ${dir}.\nStart the API without SMTP_URL (npm start in the backend's checkout) and book something; or pass the outbox's folder: npm run outbox -- 5 <DATA_DIR>/outbox`);
  process.exit(1);
}

/** Quoted-printable → bytes → UTF-8 text. */
function quotedPrintable(text) {
  const joined = text.replace(/=\r?\n/g, '');
  const bytes = [];
  for (let i = 0; i < joined.length; i++) {
    const hex = joined[i] === '=' ? /^[0-9A-Fa-f]{2}/.exec(joined.slice(i + 1, i + 3)) : null;
    if (hex) {
      bytes.push(parseInt(hex[0], 16));
      i += 2;
    } else bytes.push(...Buffer.from(joined[i], 'utf8'));
  }
  return Buffer.from(bytes).toString('utf8');
}

/** `=?UTF-8?Q?…?=` / `=?UTF-8?B?…?=` words of a header, decoded. */
function header(value) {
  return value.replace(/=\?([^?]+)\?([QqBb])\?([^?]*)\?=\s*/g, (_, _charset, kind, text) =>
    kind.toUpperCase() === 'B' ? Buffer.from(text, 'base64').toString('utf8') : quotedPrintable(text.replace(/_/g, ' ')),
  );
}

/** The message's headers (unfolded) and its first text/plain part, decoded. */
function read(file) {
  const raw = fs.readFileSync(file, 'utf8').replace(/\r\n/g, '\n');
  const [head] = raw.split('\n\n');
  const headers = {};
  for (const line of head.replace(/\n[ \t]+/g, ' ').split('\n')) {
    const at = line.indexOf(':');
    if (at > 0) headers[line.slice(0, at).toLowerCase()] = header(line.slice(at + 1).trim());
  }
  const part = /Content-Type: text\/plain[^\n]*\n(?:[^\n]+\n)*?Content-Transfer-Encoding: ([^\n]+)\n(?:[^\n]+\n)*\n([\s\S]*?)(?=\n--)/i.exec(raw);
  const encoding = part?.[1].trim().toLowerCase();
  const body = !part ? '' : encoding === 'quoted-printable' ? quotedPrintable(part[2]) : encoding === 'base64' ? Buffer.from(part[2], 'base64').toString('utf8') : part[2];
  return { headers, body };
}

const files = fs
  .readdirSync(dir)
  .filter((name) => name.endsWith('.eml'))
  .sort()
  .reverse()
  .slice(0, count);
if (!files.length) console.log(`The outbox (${dir}) is empty.`);
for (const name of files) {
  const { headers, body } = read(path.join(dir, name));
  const links = [...new Set(body.match(/https?:\/\/[^\s<>"]+/g) ?? [])];
  console.log(`${headers.date ?? ''}  to ${headers.to ?? '?'}\n  ${headers.subject ?? '(no subject)'}`);
  for (const link of links) console.log(`  ${link}`);
  console.log(`  (${path.join(dir, name)})\n`);
}
