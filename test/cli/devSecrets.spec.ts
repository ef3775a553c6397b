import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { prepareDevelopmentSecrets, printSignInHelp, recordSeededPassword } from '../../server/cli/devSecrets.ts';
import { loadConfig } from '../../server/platform/config.ts';

const USERNAMES = ['admin', 'marketing', 'staff'];

describe('cli: development secrets', () => {
  let dataDir: string;
  beforeEach(() => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'venue-dev-secrets-'));
  });
  afterEach(() => fs.rmSync(dataDir, { recursive: true, force: true }));

  const configWith = (env: Record<string, string> = {}) => loadConfig({ NODE_ENV: 'development', DATA_DIR: dataDir, ...env });
  const credentialsFile = () => path.join(dataDir, 'dev-credentials.json');
  const stored = () => JSON.parse(fs.readFileSync(credentialsFile(), 'utf8'));

  it('generates a superuser token and the seed passwords, stores the token in a 0600 file, and a password once the seeder set it', () => {
    const dev = prepareDevelopmentSecrets(configWith());
    expect(dev.generatedToken).to.equal(true);
    const [token] = dev.config.superuserApiTokens;
    expect(dev.config.superuserApiTokens).to.have.length(1);
    expect(token).to.be.a('string').with.length.greaterThan(32);
    expect(Object.keys(dev.generatedPasswords)).to.have.members(USERNAMES);
    expect(dev.passwords).to.deep.equal(dev.generatedPasswords);
    for (const password of Object.values(dev.passwords)) expect(password).to.be.a('string').with.length.of.at.least(16);
    expect(new Set(Object.values(dev.passwords)).size, 'each password is its own').to.equal(3);

    expect(dev.file).to.equal(credentialsFile());
    expect(fs.statSync(credentialsFile()).mode & 0o777).to.equal(0o600);
    // No password is recorded before an account has it.
    expect(stored()).to.deep.equal({ superuserToken: token });
    for (const username of USERNAMES) recordSeededPassword(dev, username);
    expect(stored()).to.deep.equal({ superuserToken: token, passwords: dev.passwords });
    expect(fs.statSync(credentialsFile()).mode & 0o777).to.equal(0o600);
  });

  it('rewrites a recorded password when the seeder sets another (reset, then re-seed with new passwords)', () => {
    const first = prepareDevelopmentSecrets(configWith());
    for (const username of USERNAMES) recordSeededPassword(first, username);
    // The database is reset; the next seed is given a new admin password and creates the accounts again.
    const second = prepareDevelopmentSecrets(configWith({ SEED_ADMIN_PASSWORD: 'new admin password' }));
    expect(second.passwords.admin).to.equal('new admin password');
    for (const username of USERNAMES) recordSeededPassword(second, username);
    expect(stored().passwords).to.deep.equal({ ...first.passwords, admin: 'new admin password' });
    // Re-seeding over existing accounts (nothing created) records nothing.
    const third = prepareDevelopmentSecrets(configWith({ SEED_ADMIN_PASSWORD: 'not set on any account' }));
    expect(third.passwords.admin).to.equal('not set on any account');
    expect(stored().passwords.admin).to.equal('new admin password');
  });

  it('prints only passwords the seeder has just set; with DATABASE_URL it claims none', () => {
    const dev = prepareDevelopmentSecrets(configWith({ SEED_STAFF_PASSWORD: 'chosen staff password' }));
    const printed = (config: typeof dev.config, seeded: Parameters<typeof printSignInHelp>[3]) => {
      const lines: string[] = [];
      const original = console.log;
      console.log = (text: string) => lines.push(text);
      try {
        printSignInHelp('http://localhost:3000', config, dev, seeded);
      } finally {
        console.log = original;
      }
      return lines.join('\n');
    };
    const fresh = printed(dev.config, [
      { username: 'admin', account: 'created', membership: 'created' },
      { username: 'marketing', account: 'existing', membership: 'unchanged' },
      { username: 'staff', account: 'created', membership: 'created' },
    ]);
    expect(fresh).to.contain(dev.generatedPasswords.admin);
    expect(fresh).not.to.contain(dev.passwords.marketing);
    expect(fresh).not.to.contain('chosen staff password');
    expect(fresh).to.match(/staff\s+password from SEED_STAFF_PASSWORD/);

    const postgres = printed({ ...dev.config, databaseUrl: 'postgres://db/venue' }, undefined);
    for (const password of Object.values(dev.passwords)) expect(postgres).not.to.contain(password);
    expect(postgres).to.contain('not seeded on this start (DATABASE_URL is set)');
  });

  it('tightens a file that exists with looser permissions to 0600 when it writes to it', () => {
    fs.writeFileSync(credentialsFile(), JSON.stringify({ passwords: { admin: 'kept-admin-password' } }), { mode: 0o644 });
    fs.chmodSync(credentialsFile(), 0o644);
    const dev = prepareDevelopmentSecrets(configWith());
    expect(dev.passwords.admin).to.equal('kept-admin-password');
    expect(fs.statSync(credentialsFile()).mode & 0o777).to.equal(0o600);
  });

  it('reuses the stored secrets on the next call and generates nothing', () => {
    const first = prepareDevelopmentSecrets(configWith());
    for (const username of USERNAMES) recordSeededPassword(first, username);
    const contents = fs.readFileSync(credentialsFile(), 'utf8');
    const second = prepareDevelopmentSecrets(configWith());
    expect(second.generatedToken).to.equal(false);
    expect(second.generatedPasswords).to.deep.equal({});
    expect(second.config.superuserApiTokens).to.deep.equal(first.config.superuserApiTokens);
    expect(second.passwords).to.deep.equal(first.passwords);
    expect(fs.readFileSync(credentialsFile(), 'utf8')).to.equal(contents);
  });

  it('honours SEED_*_PASSWORD values: used as given, never generated', () => {
    const dev = prepareDevelopmentSecrets(configWith({ SEED_ADMIN_PASSWORD: 'chosen admin password' }));
    expect(dev.passwords.admin).to.equal('chosen admin password');
    expect(Object.keys(dev.generatedPasswords)).to.have.members(['marketing', 'staff']);
    expect(fs.readFileSync(credentialsFile(), 'utf8')).not.to.contain('chosen admin password');
    for (const username of USERNAMES) recordSeededPassword(dev, username);

    // A given password the seeder set is recorded like a generated one; a variable set later wins over it.
    expect(stored().passwords.admin).to.equal('chosen admin password');
    const later = prepareDevelopmentSecrets(configWith({ SEED_STAFF_PASSWORD: 'chosen staff password' }));
    expect(later.passwords.staff).to.equal('chosen staff password');
    expect(later.passwords.marketing).to.equal(dev.passwords.marketing);
    expect(later.passwords.admin).to.equal('chosen admin password');
    expect(later.generatedPasswords).to.deep.equal({});
  });

  it('generates nothing when everything is configured', () => {
    const dev = prepareDevelopmentSecrets(
      configWith({ SUPERUSER_API_TOKENS: 'configured-token', SEED_ADMIN_PASSWORD: 'a1 password', SEED_MARKETING_PASSWORD: 'm1 password', SEED_STAFF_PASSWORD: 's1 password' }),
    );
    expect(dev.generatedToken).to.equal(false);
    expect(dev.generatedPasswords).to.deep.equal({});
    expect(dev.config.superuserApiTokens).to.deep.equal(['configured-token']);
    expect(dev.passwords).to.deep.equal({ admin: 'a1 password', marketing: 'm1 password', staff: 's1 password' });
    expect(fs.existsSync(credentialsFile())).to.equal(false);
  });

  it('keeps configured superuser tokens and does not generate one', () => {
    const dev = prepareDevelopmentSecrets(configWith({ SUPERUSER_API_TOKENS: 'one-token,two-token' }));
    expect(dev.generatedToken).to.equal(false);
    expect(dev.config.superuserApiTokens).to.deep.equal(['one-token', 'two-token']);
    expect(fs.existsSync(credentialsFile())).to.equal(false);
  });

  it('creates a data directory that does not exist yet', () => {
    const nested = path.join(dataDir, 'not', 'yet');
    const dev = prepareDevelopmentSecrets(loadConfig({ NODE_ENV: 'development', DATA_DIR: nested }));
    expect(dev.file).to.equal(path.join(nested, 'dev-credentials.json'));
    expect(fs.existsSync(dev.file!)).to.equal(true);
  });

  it('generates and writes nothing in production', () => {
    const dev = prepareDevelopmentSecrets(loadConfig({ NODE_ENV: 'production', DATA_DIR: dataDir, SEED_STAFF_PASSWORD: 'prod staff password' }));
    expect(dev.generatedToken).to.equal(false);
    expect(dev.generatedPasswords).to.deep.equal({});
    expect(dev.config.superuserApiTokens).to.deep.equal([]);
    expect(dev.passwords).to.deep.equal({ staff: 'prod staff password' });
    expect(dev.file).to.equal(undefined);
    expect(fs.readdirSync(dataDir)).to.deep.equal([]);
  });

  it('ignores stored development secrets in production', () => {
    prepareDevelopmentSecrets(configWith());
    const dev = prepareDevelopmentSecrets(loadConfig({ NODE_ENV: 'production', DATA_DIR: dataDir }));
    expect(dev.config.superuserApiTokens).to.deep.equal([]);
    expect(dev.passwords).to.deep.equal({});
  });
});
