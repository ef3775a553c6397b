import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { prepareDevelopmentSecrets } from '../../server/cli/devSecrets.ts';
import { loadConfig } from '../../server/config.ts';

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

  it('generates a superuser token and the seed passwords once, and stores them in a 0600 file', () => {
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
    expect(stored()).to.deep.equal({ superuserToken: token, passwords: dev.passwords });
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
    const contents = fs.readFileSync(credentialsFile(), 'utf8');
    const second = prepareDevelopmentSecrets(configWith());
    expect(second.generatedToken).to.equal(false);
    expect(second.generatedPasswords).to.deep.equal({});
    expect(second.config.superuserApiTokens).to.deep.equal(first.config.superuserApiTokens);
    expect(second.passwords).to.deep.equal(first.passwords);
    expect(fs.readFileSync(credentialsFile(), 'utf8')).to.equal(contents);
  });

  it('honours SEED_*_PASSWORD values: used as given, never generated or written', () => {
    const dev = prepareDevelopmentSecrets(configWith({ SEED_ADMIN_PASSWORD: 'chosen admin password' }));
    expect(dev.passwords.admin).to.equal('chosen admin password');
    expect(Object.keys(dev.generatedPasswords)).to.have.members(['marketing', 'staff']);
    expect(fs.readFileSync(credentialsFile(), 'utf8')).not.to.contain('chosen admin password');
    expect(stored().passwords).not.to.have.property('admin');

    // A variable set later wins over a stored password.
    const later = prepareDevelopmentSecrets(configWith({ SEED_STAFF_PASSWORD: 'chosen staff password' }));
    expect(later.passwords.staff).to.equal('chosen staff password');
    expect(later.passwords.marketing).to.equal(dev.passwords.marketing);
    expect(later.generatedPasswords).to.deep.equal({ admin: later.passwords.admin });
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
    expect(stored()).not.to.have.property('superuserToken');
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
