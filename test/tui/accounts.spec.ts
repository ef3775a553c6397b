import { expect } from 'chai';
import { unwrap, type VenueClient } from '../../sdk/index.ts';
import { SUPERUSER_TOKEN, type TestServer } from '../helpers/server.ts';
import { registerPasskey, signInWith, staffMember } from '../modules/passkeys/helpers.ts';
import { choose, connectedApp, KEYS, openSection, typeInto, useSuperuserServer, type RenderedApp } from './helpers.ts';

const PASSWORD = 'correct horse battery';

describe('tui: accounts', () => {
  let server: TestServer;
  let sdk: VenueClient;
  useSuperuserServer((s, c) => ([server, sdk] = [s, c]));

  async function account(email: string) {
    const page = unwrap(await sdk.GET('/api/sudo/users', { params: { query: { q: email } } }));
    return page.items.find((item) => item.email === email);
  }
  async function makeAccount(email: string, name = 'Made by SDK') {
    return unwrap(await sdk.POST('/api/sudo/users', { body: { email, name, password: PASSWORD } }));
  }
  async function emptyAccounts() {
    for (const item of unwrap(await sdk.GET('/api/sudo/users', { params: { query: { limit: 100 } } })).items) {
      unwrap(await sdk.DELETE('/api/sudo/users/{userId}', { params: { path: { userId: item.id } } }));
    }
  }
  /** The accounts list, with the newest account's screen opened. */
  async function openNewest(app: RenderedApp, email: string) {
    await openSection(app, 'Accounts');
    await app.waitFor(email);
    await app.press(KEYS.down, KEYS.enter);
    return app.waitFor(`Account ${email}`);
  }

  beforeEach(emptyAccounts);

  it('creates an account through the form and lists it', async () => {
    const app = await connectedApp(server.baseUrl, SUPERUSER_TOKEN);
    await openSection(app, 'Accounts');
    await app.waitFor('page 1 of 1, total 0');
    await app.press(KEYS.enter);
    await app.waitFor('Create account');
    await typeInto(app, 'dana@example.test');
    await app.press(KEYS.enter);
    await typeInto(app, 'Dana Scully');
    await app.press(KEYS.enter);
    await typeInto(app, PASSWORD, { masked: true });
    expect(app.frame()).not.to.contain(PASSWORD);
    await app.press(KEYS.enter, KEYS.right);
    await app.waitFor('[SUPERUSER]');
    await app.press(KEYS.enter);

    // The list comes back on top with a notice, and reloads.
    const frame = await app.waitFor(/dana@example\.test\s+Dana Scully\s+SUPERUSER\s+active/);
    expect(frame).to.contain('✔ Created dana@example.test');
    expect(frame).to.contain('page 1 of 1, total 1');
    expect(await account('dana@example.test')).to.include({ name: 'Dana Scully', role: 'SUPERUSER', banned: false });
  });

  it('checks the form before sending, and shows the server refusal (409) by title and detail', async () => {
    await makeAccount('taken@example.test');
    const app = await connectedApp(server.baseUrl, SUPERUSER_TOKEN);
    await openSection(app, 'Accounts');
    await app.waitFor('total 1');
    await app.press(KEYS.enter);
    await app.waitFor('Create account');
    await typeInto(app, 'taken@example.test');
    await app.press(KEYS.enter);
    await typeInto(app, 'Second');
    await app.press(KEYS.enter);
    await typeInto(app, 'short', { masked: true });
    await app.press(KEYS.enter, KEYS.enter);
    let frame = await app.waitFor('at least 8 characters');
    expect(frame).to.contain('Create account');

    for (let i = 0; i < 'short'.length; i++) await app.press(KEYS.backspace);
    await typeInto(app, PASSWORD, { masked: true });
    await app.press(KEYS.enter, KEYS.enter);
    frame = await app.waitFor('✖ Conflict');
    expect(frame).to.contain('An account with taken@example.test exists.');
    expect(frame).to.contain('409 · email_taken');
    expect(unwrap(await sdk.GET('/api/sudo/users')).total).to.equal(1);
  });

  it('bans an account (reason, expiry) and shows the state, then unbans it', async () => {
    await makeAccount('mulder@example.test', 'Fox Mulder');
    const app = await connectedApp(server.baseUrl, SUPERUSER_TOKEN);
    let frame = await openNewest(app, 'mulder@example.test');
    expect(frame).to.match(/State\s+active/);
    await app.press(KEYS.down, KEYS.enter);
    await app.waitFor('Ban mulder@example.test');
    await typeInto(app, 'spam');
    await app.press(KEYS.enter);
    await typeInto(app, 'next tuesday');
    await app.press(KEYS.enter);
    frame = await app.waitFor('Not a date');
    expect((await account('mulder@example.test'))?.banned).to.equal(false);

    for (let i = 0; i < 'next tuesday'.length; i++) await app.press(KEYS.backspace);
    await typeInto(app, '2031-01-01');
    await app.press(KEYS.enter);
    frame = await app.waitFor(/State\s+banned until 2031-01-01/);
    expect(frame).to.contain('✔ Banned mulder@example.test');
    expect(frame).to.match(/Ban reason\s+spam/);
    expect(frame).to.match(/❯ Unban/);
    expect(await account('mulder@example.test')).to.include({ banned: true, banReason: 'spam', banExpiresAt: '2031-01-01T00:00:00.000Z' });

    await app.press(KEYS.escape);
    await app.waitFor(/mulder@example\.test\s+Fox Mulder\s+USER\s+banned until 2031-01-01/);

    await app.press(KEYS.enter);
    await app.waitFor('Account mulder@example.test');
    await app.press(KEYS.down, KEYS.enter);
    frame = await app.waitFor(/State\s+active/);
    expect(frame).to.contain('✔ Unbanned mulder@example.test');
    expect((await account('mulder@example.test'))?.banned).to.equal(false);
  });

  it('edits name and role, and sends nothing when nothing changed', async () => {
    await makeAccount('skinner@example.test', 'Walter');
    const app = await connectedApp(server.baseUrl, SUPERUSER_TOKEN);
    await openNewest(app, 'skinner@example.test');
    await app.press(KEYS.enter);
    await app.waitFor('Edit skinner@example.test');
    await typeInto(app, ' Skinner');
    await app.press(KEYS.enter, KEYS.enter, KEYS.enter, KEYS.right);
    await app.waitFor('[SUPERUSER]');
    await app.press(KEYS.enter);
    // Back on the account's screen, reloaded.
    const frame = await app.waitFor((current) => current.includes('Account skinner@example.test') && /Role\s+SUPERUSER/.test(current));
    expect(frame).to.contain('✔ Saved skinner@example.test');
    expect(frame).to.match(/Name\s+Walter Skinner/);
    const saved = await account('skinner@example.test');
    expect(saved).to.include({ name: 'Walter Skinner', role: 'SUPERUSER' });

    await app.press(KEYS.enter);
    await app.waitFor('Edit skinner@example.test');
    await app.press(KEYS.enter, KEYS.enter, KEYS.enter, KEYS.enter);
    await app.waitFor('✔ Nothing changed');
    expect((await account('skinner@example.test'))?.updatedAt).to.equal(saved?.updatedAt);
  });

  it('deletes only after the account e-mail is typed', async () => {
    await makeAccount('krycek@example.test');
    const app = await connectedApp(server.baseUrl, SUPERUSER_TOKEN);
    await openNewest(app, 'krycek@example.test');
    await app.press(KEYS.up, KEYS.enter);
    await app.waitFor('Delete krycek@example.test');
    await typeInto(app, 'krycek@example.tes');
    await app.press(KEYS.enter);
    const frame = await app.waitFor('Not confirmed');
    expect(frame).to.contain('Nothing was deleted');
    expect(await account('krycek@example.test')).to.not.equal(undefined);

    await app.press(KEYS.backspace);
    await app.waitFor(/E-mail\s+krycek@example\.te\s/);
    await typeInto(app, 'st');
    await app.press(KEYS.enter);
    await app.waitFor('✔ Deleted krycek@example.test');
    await app.waitFor('total 0');
    expect(await account('krycek@example.test')).to.equal(undefined);
  });

  it('pages with ←/→ and PgUp/PgDn, and searches on the server', async () => {
    for (let i = 0; i < 12; i++) await makeAccount(`page-${String(i).padStart(2, '0')}@example.test`, `Pager ${i}`);
    await makeAccount('zeta@example.test', 'Special Zeta');
    const app = await connectedApp(server.baseUrl, SUPERUSER_TOKEN, { pageSize: 5 });
    await openSection(app, 'Accounts');
    let frame = await app.waitFor('page 1 of 3, total 13');
    // Newest first.
    expect(frame).to.contain('zeta@example.test');
    expect(frame).to.contain('page-08@example.test');
    expect(frame).not.to.contain('page-07@example.test');

    await app.press(KEYS.right);
    frame = await app.waitFor('page 2 of 3, total 13');
    expect(frame).to.contain('page-07@example.test');
    expect(frame).not.to.contain('zeta@example.test');
    await app.press(KEYS.pageDown);
    frame = await app.waitFor('page 3 of 3, total 13');
    expect(frame).to.contain('page-00@example.test');
    await app.press(KEYS.right);
    await app.press(KEYS.pageUp);
    await app.waitFor('page 2 of 3');
    await app.press(KEYS.left);
    await app.waitFor('page 1 of 3');

    await app.press('/');
    await app.waitFor('Search: ');
    await typeInto(app, 'zeta');
    frame = await app.waitFor('page 1 of 1, total 1');
    expect(frame).to.contain('Special Zeta');
    expect(frame).not.to.contain('page-08@example.test');
    // Enter in the search opens the first match; Esc comes back to the filtered list.
    await app.press(KEYS.enter);
    await app.waitFor('Account zeta@example.test');
    await app.press(KEYS.escape);
    frame = await app.waitFor('(matching "zeta")');
    expect(frame).to.contain('/ search');

    await app.press('/');
    await app.waitFor('↓ to the list');
    for (let i = 0; i < 4; i++) await app.press(KEYS.backspace);
    await typeInto(app, 'nobody');
    frame = await app.waitFor('No account matches "nobody".');
    expect(frame).to.contain('total 0');
  });

  it("shows an account's passkeys (label, created, last used) in 80 columns and revokes one", async () => {
    const { account, token } = await staffMember(server);
    const laptop = await registerPasskey(server, token, {}, 'Laptop');
    expect((await signInWith(server, laptop.authenticator)).res.status).to.equal(200);
    await registerPasskey(server, token, {}, 'Security key');
    const app = await connectedApp(server.baseUrl, SUPERUSER_TOKEN, {}, { columns: 80 });
    await openNewest(app, account.email);
    await choose(app, 'Passkeys');
    let frame = await app.waitFor(`Passkeys of ${account.email}`);
    frame = await app.waitFor('Security key');
    for (const line of frame.split('\n')) expect([...line].length, `too wide:\n${line}`).to.be.at.most(80);
    expect(frame).to.match(/Label\s+Created\s+Last used/);
    expect(frame).to.match(/Laptop\s+\d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC\s+\d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC/);
    expect(frame).to.match(/Security key\s+\d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC\s+never/);

    // Enter on a passkey asks first; "No" (the first choice) keeps it.
    await choose(app, 'Laptop');
    await app.waitFor('Revoke passkey Laptop?');
    await app.press(KEYS.enter);
    await app.waitFor(`Passkeys of ${account.email}`);
    expect(unwrap(await sdk.GET('/api/sudo/users/{userId}/passkeys', { params: { path: { userId: account.id } } })).items).to.have.length(2);

    await choose(app, 'Laptop');
    await app.waitFor('Revoke passkey Laptop?');
    await choose(app, 'Yes, revoke Laptop');
    frame = await app.waitFor('✔ Revoked passkey Laptop');
    frame = await app.waitFor((current) => current.includes('Security key') && !/Laptop\s+\d/.test(current));
    const left = unwrap(await sdk.GET('/api/sudo/users/{userId}/passkeys', { params: { path: { userId: account.id } } })).items;
    expect(left.map((passkey) => passkey.label)).to.deep.equal(['Security key']);
    expect((await signInWith(server, laptop.authenticator)).res.body.code).to.equal('passkey_not_recognized');
  });

  it('says so when an account has no passkeys', async () => {
    await makeAccount('plain@example.test');
    const app = await connectedApp(server.baseUrl, SUPERUSER_TOKEN);
    await openNewest(app, 'plain@example.test');
    await choose(app, 'Passkeys');
    await app.waitFor('No passkeys: this account signs in with its password only.');
  });
});
