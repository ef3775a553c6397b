import fs from 'node:fs';
import path from 'node:path';
import { randomToken } from '../auth/secrets.ts';
import type { Config } from '../config.ts';
import { SEED_ACCOUNTS, type SeedPasswords } from '../../seed/index.ts';

interface StoredSecrets {
  superuserToken?: string;
  passwords?: SeedPasswords;
}

export interface DevelopmentSecrets {
  config: Config;
  passwords: SeedPasswords;
  /** Passwords generated on this start: printed now, never again. */
  generatedPasswords: SeedPasswords;
  generatedToken: boolean;
  file?: string;
}

/**
 * Outside production, what the environment leaves unset (a superuser token, the seed passwords) is generated
 * once and kept in `<DATA_DIR>/dev-credentials.json` (mode 0600), so restarts and the terminal app keep
 * working. In production nothing is generated: unset stays unset.
 */
export function prepareDevelopmentSecrets(config: Config): DevelopmentSecrets {
  const fromEnv = Object.fromEntries(Object.entries(config.seedPasswords).filter(([, value]) => value)) as SeedPasswords;
  if (config.nodeEnv === 'production') {
    return { config, passwords: fromEnv, generatedPasswords: {}, generatedToken: false };
  }
  const file = path.join(config.dataDir, 'dev-credentials.json');
  const stored: StoredSecrets = fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, 'utf8')) : {};
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
    }
    tokens = [stored.superuserToken];
  }
  const storedPasswords = { ...stored.passwords, ...generatedPasswords };
  if (generatedToken || Object.keys(generatedPasswords).length) {
    fs.mkdirSync(config.dataDir, { recursive: true });
    fs.writeFileSync(file, JSON.stringify({ ...stored, passwords: storedPasswords }, null, 2) + '\n', { mode: 0o600 });
    fs.chmodSync(file, 0o600); // `mode` applies only when the file is created
  }
  return { config: { ...config, superuserApiTokens: tokens }, passwords, generatedPasswords, generatedToken, file };
}

/** `created`: the accounts this start created; only their generated passwords are worth printing. */
export function printSignInHelp(baseUrl: string, config: Config, dev: DevelopmentSecrets, created: string[]): void {
  const lines = [``, `Venue backend listening on ${baseUrl}  (database: ${config.databaseUrl ? 'PostgreSQL' : `embedded, ${config.dataDir}`})`];
  lines.push(`Dashboard sign-in: POST ${baseUrl}/api/auth/sign-in {"identifier": "admin" | "marketing" | "staff", "password": …}`);
  const generated = Object.entries(dev.generatedPasswords).filter(([username]) => created.includes(username));
  if (generated.length) {
    lines.push('Generated passwords (shown this once; set SEED_<NAME>_PASSWORD to choose your own):');
    for (const [username, password] of generated) lines.push(`  ${username.padEnd(10)} ${password}`);
  } else if (dev.file) {
    lines.push(`Passwords: from SEED_*_PASSWORD, or generated on the first start (printed then; kept in ${dev.file}).`);
  }
  if (config.nodeEnv !== 'production' && config.superuserApiTokens[0]) {
    lines.push(`Superuser token for the terminal app (development only): ${config.superuserApiTokens[0]}`);
  }
  console.log(lines.join('\n') + '\n');
}
