import fs from 'node:fs';
import path from 'node:path';
import { randomToken } from '../platform/auth/secrets.ts';
import type { Config } from '../platform/config.ts';
import { SEED_ACCOUNTS, type SeedPasswords, type SeedReport, type SeedUsername } from '../../seed/index.ts';

interface StoredSecrets {
  superuserToken?: string;
  passwords?: SeedPasswords;
}

export interface DevelopmentSecrets {
  config: Config;
  /** The password the seeder gives each account it creates: SEED_*_PASSWORD, else the recorded one, else a new one. */
  passwords: SeedPasswords;
  /** Passwords generated on this start (used, printed and recorded only for accounts the seeder creates). */
  generatedPasswords: SeedPasswords;
  generatedToken: boolean;
  file?: string;
}

const readStored = (file: string): StoredSecrets => (fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, 'utf8')) : {});

function writeStored(dataDir: string, file: string, stored: StoredSecrets): void {
  fs.mkdirSync(dataDir, { recursive: true });
  fs.writeFileSync(file, JSON.stringify(stored, null, 2) + '\n', { mode: 0o600 });
  fs.chmodSync(file, 0o600); // `mode` applies only when the file is created
}

/**
 * Outside production, what the environment leaves unset is generated: a superuser token (kept at once in
 * `<DATA_DIR>/dev-credentials.json`, mode 0600, so restarts and the terminal app keep working) and the seed
 * passwords. A password reaches the file only once the seeder has set it (`recordSeededPasswords`), so the
 * file never names a password no account has. In production nothing is generated: unset stays unset.
 */
export function prepareDevelopmentSecrets(config: Config): DevelopmentSecrets {
  const fromEnv = Object.fromEntries(Object.entries(config.seedPasswords).filter(([, value]) => value)) as SeedPasswords;
  if (config.nodeEnv === 'production') {
    return { config, passwords: fromEnv, generatedPasswords: {}, generatedToken: false };
  }
  const file = path.join(config.dataDir, 'dev-credentials.json');
  const stored = readStored(file);
  const generatedPasswords: SeedPasswords = {};
  const passwords: SeedPasswords = { ...stored.passwords, ...fromEnv };
  for (const { username } of SEED_ACCOUNTS) {
    if (!passwords[username]) passwords[username] = generatedPasswords[username] = randomToken(12);
  }
  let tokens = config.superuserApiTokens;
  let generatedToken = false;
  if (tokens.length === 0) {
    if (!stored.superuserToken) {
      stored.superuserToken = `dev_${randomToken(32)}`;
      generatedToken = true;
      writeStored(config.dataDir, file, stored);
    }
    tokens = [stored.superuserToken];
  }
  return { config: { ...config, superuserApiTokens: tokens }, passwords, generatedPasswords, generatedToken, file };
}

/**
 * Records in the credentials file the password of an account the seeder has just created, generated or given
 * (SEED_*_PASSWORD): after a reset and a re-seed with other passwords the file names the new ones. Called as
 * each account is created (`seed`'s `onCreated`), so a start stopped half-way loses none. Other entries are
 * kept. Nothing is written in production.
 */
export function recordSeededPassword(dev: DevelopmentSecrets, username: string): void {
  const password = dev.passwords[username as SeedUsername];
  if (!dev.file || !password) return;
  const stored = readStored(dev.file);
  writeStored(dev.config.dataDir, dev.file, { ...stored, passwords: { ...stored.passwords, [username]: password } });
}

/**
 * What to sign in with. `seeded`: the seeder's report of this start, undefined when it did not seed (DATABASE_URL,
 * SEED_ON_START=false). Only passwords the seeder has just set are printed; for any other account the banner says
 * where its password came from and claims none.
 */
export function printSignInHelp(baseUrl: string, config: Config, dev: DevelopmentSecrets, seeded: readonly SeedReport[] | undefined): void {
  const lines = [``, `Venue backend listening on ${baseUrl}  (database: ${config.databaseUrl ? 'PostgreSQL' : `embedded, ${config.dataDir}`})`];
  lines.push(`Dashboard sign-in: POST ${baseUrl}/api/auth/sign-in {"identifier": "admin" | "marketing" | "staff", "password": …}`);
  const created = (seeded ?? []).filter((row) => row.account === 'created').map((row) => row.username as SeedUsername);
  if (created.length) {
    lines.push(`Accounts created now${dev.file ? ` (passwords recorded in ${dev.file})` : ''}:`);
    for (const username of created) {
      const generated = dev.generatedPasswords[username];
      lines.push(`  ${username.padEnd(10)} ${generated ?? `password from SEED_${username.toUpperCase()}_PASSWORD or ${dev.file ?? 'the environment'}`}`);
    }
    if (created.some((username) => dev.generatedPasswords[username])) lines.push('  (generated passwords are shown this once; set SEED_<NAME>_PASSWORD to choose your own)');
  }
  const existing = (seeded ?? []).filter((row) => row.account === 'existing').map((row) => row.username);
  if (existing.length) {
    lines.push(`Existing accounts (${existing.join(', ')}) keep the password set when they were created or changed since${dev.file ? `; ${dev.file} holds the ones the seeder set` : ''}.`);
  }
  if (!seeded) {
    lines.push(
      `Accounts are not seeded on this start (${config.databaseUrl ? 'DATABASE_URL is set' : 'SEED_ON_START=false'}): \`npm run seed\` creates them and prints, or records${dev.file ? ` in ${dev.file}` : ''}, the passwords it sets.`,
    );
  }
  if (config.nodeEnv !== 'production' && config.superuserApiTokens[0]) {
    lines.push(`Superuser token for the terminal app (development only): ${config.superuserApiTokens[0]}`);
  }
  console.log(lines.join('\n') + '\n');
}
