import { expect } from 'chai';
import { createClient, unwrap, type VenueClient } from '../../sdk/index.ts';
import { SUPERUSER_TOKEN, type TestServer } from '../helpers/server.ts';
import { choose, connectedApp, KEYS, openSection, typeInto, useSuperuserServer, type RenderedApp } from './helpers.ts';

const PASSWORD = 'correct horse battery';
const KEY_PATTERN = /vk_[A-Za-z0-9_-]{20,}/;

describe('tui: API keys', () => {
  let server: TestServer;
  let sdk: VenueClient;
  useSuperuserServer((s, c) => ([server, sdk] = [s, c]));

  const keys = async () => unwrap(await sdk.GET('/api/sudo/api-keys')).items;
  async function makeSuperuser(email: string) {
    return unwrap(await sdk.POST('/api/sudo/users', { body: { email, name: 'Key owner', password: PASSWORD, role: 'SUPERUSER' } }));
  }
  async function makeKey(name: string) {
    const owner = await makeSuperuser(`${name}@example.test`);
    return unwrap(await sdk.POST('/api/sudo/api-keys', { body: { name, userId: owner.id, permissions: {} } }));
  }
  /** The API keys list with the newest key's screen open. */
  async function openNewestKey(app: RenderedApp, name: string) {
    await openSection(app, 'API keys');
    await app.waitFor(name);
    await app.press(KEYS.down, KEYS.enter);
    return app.waitFor(`API key ${name}`);
  }

  beforeEach(async () => {
    for (const key of await keys()) unwrap(await sdk.DELETE('/api/sudo/api-keys/{apiKeyId}', { params: { path: { apiKeyId: key.id } } }));
  });

  /** Moves the checklist cursor to `permission` (wherever the sorted list puts it) with ↓, and ticks it. */
  async function tick(app: RenderedApp, permission: string) {
    const grantable = unwrap(await sdk.GET('/api/sudo/api-keys/permissions')).items.map((item) => item.permission);
    const index = grantable.indexOf(permission);
    expect(index, permission).to.be.at.least(0);
    const row = Number(/row (\d+) of/.exec(app.frame())?.[1] ?? 1) - 1;
    await app.press(...Array<string>(index - row).fill(KEYS.down));
    await app.waitFor(new RegExp(`❯ \\[[ x]\\] ${permission}`));
    await app.press(KEYS.space);
    await app.waitFor(`❯ [x] ${permission}`);
  }

  it('creates a key (owner picker, permission checklist, expiry), shows the plaintext once, then only its first characters', async () => {
    await makeSuperuser('owner@example.test');
    unwrap(await sdk.POST('/api/sudo/users', { body: { email: 'plain@example.test', name: 'Not a superuser', password: PASSWORD } }));
    const app = await connectedApp(server.baseUrl, SUPERUSER_TOKEN);
    await openSection(app, 'API keys');
    await app.waitFor('total 0');
    await app.press(KEYS.enter);
    await app.waitFor('step 1 of 4: name');
    await typeInto(app, 'ci-bot');
    await app.press(KEYS.enter);

    // The screen says the owner rule; SUPERUSER accounts come first, the others are offered the role.
    let frame = await app.waitFor('owner@example.test');
    expect(frame).to.contain('step 2 of 4');
    expect(frame).to.contain('A key is owned by an account with the SUPERUSER account role');
    expect(frame).to.match(/❯ owner@example\.test\s+Key owner\s+SUPERUSER/);
    expect(frame).to.match(/plain@example\.test\s+Not a superuser\s+USER/);
    expect(frame).to.match(/1 of \d+ can own keys/);
    await app.press(KEYS.enter);

    // The permissions are the server's (GET /api/sudo/api-keys/permissions).
    frame = await app.waitFor((current) => current.includes('step 3 of 4: permissions') && current.includes('selected'));
    const grantable = unwrap(await sdk.GET('/api/sudo/api-keys/permissions')).items;
    expect(grantable.length).to.be.greaterThan(0);
    expect(frame).to.contain(`❯ [ ] ${grantable[0].permission}`);
    expect(frame).to.contain(`0 of ${grantable.length} selected · row 1 of ${grantable.length}`);
    // The key below calls GET /api/tables: tick `tables:read`.
    await tick(app, 'tables:read');
    await app.press(KEYS.enter);

    await app.waitFor('step 4 of 4: expiry');
    await typeInto(app, '2031-06-01');
    const beforeReveal = app.frames.length;
    await app.press(KEYS.enter);

    frame = await app.waitFor('API key created');
    const key = KEY_PATTERN.exec(frame)?.[0];
    expect(key, frame).to.be.a('string');
    expect(frame).to.contain('it will not be shown again');
    const [stored] = await keys();
    expect(stored).to.include({ name: 'ci-bot', ownerEmail: 'owner@example.test', enabled: true, expiresAt: '2031-06-01T00:00:00.000Z' });
    expect(stored.permissions).to.deep.equal({ tables: ['read'] });
    expect(key!.startsWith(stored.start)).to.equal(true);
    // The key on screen is the real one, and holds the permission ticked.
    const keyClient = createClient({ baseUrl: server.baseUrl, apiKey: key });
    const me = await keyClient.GET('/api/auth/me');
    expect(me.response.status).to.equal(200);
    expect(me.data?.authSource).to.equal('api-key');
    expect((await keyClient.GET('/api/tables')).response.status).to.equal(200);

    // Leaving the screen: only the first characters from then on, on every screen.
    const afterReveal = app.frames.length;
    await app.press(KEYS.enter);
    frame = await app.waitFor(/ci-bot\s+vk_/);
    expect(frame).to.contain(`${stored.start}…`);
    // Name, start, owner, enabled, expiry, last used (the key was just used, best-effort counted), request count.
    expect(frame).to.match(/ci-bot\s+vk_\S+…\s+owner@example\.test\s+yes\s+2031-06-01\s+(never|\d{4}-\d\d-\d\d)\s+\d+/);
    await app.press(KEYS.down, KEYS.enter);
    frame = await app.waitFor('API key ci-bot');
    expect(frame).to.contain(`${stored.start}…`);
    const revealed = app.framesSince(beforeReveal).filter((written) => written.includes(key!)).length;
    expect(revealed).to.be.greaterThan(0);
    const afterLeaving = app.framesSince(afterReveal);
    const gone = afterLeaving.findIndex((written) => !written.includes('API key created'));
    expect(gone).to.be.at.least(0);
    expect(afterLeaving.slice(gone).filter((written) => written.includes(key!))).to.deep.equal([]);
  });

  it('disables and enables a key', async () => {
    const { apiKey } = await makeKey('toggled');
    const app = await connectedApp(server.baseUrl, SUPERUSER_TOKEN);
    let frame = await openNewestKey(app, 'toggled');
    expect(frame).to.match(/Enabled\s+yes/);
    await app.press(KEYS.enter);
    frame = await app.waitFor(/Enabled\s+no/);
    expect(frame).to.contain('✔ toggled is disabled');
    expect((await keys()).find((key) => key.id === apiKey.id)?.enabled).to.equal(false);
    await app.press(KEYS.escape);
    await app.waitFor(/toggled\s+vk_\S+\s+toggled@example\.test\s+no/);
    await app.press(KEYS.enter);
    await app.waitFor('API key toggled');
    await app.press(KEYS.enter);
    await app.waitFor('✔ toggled is enabled');
    expect((await keys()).find((key) => key.id === apiKey.id)?.enabled).to.equal(true);
  });

  it('changes the expiry, refusing a past date with the server field error', async () => {
    const { apiKey } = await makeKey('expiring');
    const app = await connectedApp(server.baseUrl, SUPERUSER_TOKEN);
    await openNewestKey(app, 'expiring');
    await choose(app, 'Change expiry');
    await app.waitFor('Expiry of expiring');
    await typeInto(app, '2020-01-01');
    await app.press(KEYS.enter);
    let frame = await app.waitFor('✖ Invalid request');
    expect(frame).to.match(/Expires\s+2020-01-01\s+✖ must be in the future/);
    for (let i = 0; i < '2020-01-01'.length; i++) await app.press(KEYS.backspace);
    await app.waitFor(/Expires\s+blank = never/);
    await typeInto(app, '2032-01-01');
    await app.press(KEYS.enter);
    frame = await app.waitFor(/Expires\s+2032-01-01 00:00 UTC/);
    expect(frame).to.contain('API key expiring');
    expect((await keys()).find((key) => key.id === apiKey.id)?.expiresAt).to.equal('2032-01-01T00:00:00.000Z');
  });

  it('deletes a key after confirmation ("No" keeps it)', async () => {
    const { apiKey } = await makeKey('doomed');
    const app = await connectedApp(server.baseUrl, SUPERUSER_TOKEN);
    await openNewestKey(app, 'doomed');
    await app.press(KEYS.up, KEYS.enter);
    await app.waitFor('Delete API key doomed?');
    await app.press(KEYS.enter);
    await app.waitFor((frame) => frame.includes('API key doomed') && !frame.includes('Delete API key'));
    expect((await keys()).map((key) => key.id)).to.deep.equal([apiKey.id]);

    await app.press(KEYS.enter);
    await app.waitFor('Delete API key doomed?');
    await app.press(KEYS.down, KEYS.enter);
    const frame = await app.waitFor((current) => current.includes('✔ Deleted API key doomed') && current.includes('total 0'));
    expect(frame).not.to.contain('doomed@example.test');
    expect(await keys()).to.deep.equal([]);
  });
  it('renames a key', async () => {
    const { apiKey } = await makeKey('old-name');
    const app = await connectedApp(server.baseUrl, SUPERUSER_TOKEN);
    await openNewestKey(app, 'old-name');
    await choose(app, 'Rename');
    await app.waitFor('Rename API key old-name');
    for (let i = 0; i < 'old-name'.length; i++) await app.press(KEYS.backspace);
    await typeInto(app, 'new-name');
    await app.press(KEYS.enter);
    const frame = await app.waitFor('✔ Renamed to new-name');
    expect(frame).to.contain('API key new-name');
    expect((await keys()).find((key) => key.id === apiKey.id)?.name).to.equal('new-name');
  });

  it('edits a key\'s permissions with the checklist, ticked with what it holds', async () => {
    const { apiKey } = await makeKey('scoped');
    const app = await connectedApp(server.baseUrl, SUPERUSER_TOKEN);
    let frame = await openNewestKey(app, 'scoped');
    expect(frame).to.match(/Permissions\s+none/);
    await choose(app, 'Edit permissions');
    await app.waitFor((current) => current.includes('Permissions of scoped') && current.includes('selected'));
    await tick(app, 'tables:read');
    await app.press(KEYS.enter);
    frame = await app.waitFor('✔ scoped now holds tables:read');
    expect(frame).to.match(/Permissions\s+tables:read/);
    expect((await keys()).find((key) => key.id === apiKey.id)?.permissions).to.deep.equal({ tables: ['read'] });

    // Opened again, the checklist starts ticked; unticking everything leaves none.
    await choose(app, 'Edit permissions');
    await app.waitFor((current) => current.includes('Permissions of scoped') && current.includes('1 of'));
    const grantable = unwrap(await sdk.GET('/api/sudo/api-keys/permissions')).items.map((item) => item.permission);
    await app.press(...Array<string>(grantable.indexOf('tables:read')).fill(KEYS.down));
    await app.waitFor('❯ [x] tables:read');
    await app.press(KEYS.space, KEYS.enter);
    await app.waitFor('✔ scoped now holds no permissions');
    expect((await keys()).find((key) => key.id === apiKey.id)?.permissions).to.deep.equal({});
  });

  it('keeps the checklist\'s title in view at 80×24 while the cursor goes down to the last permission and wraps to the first', async () => {
    await makeKey('scrolled');
    const grantable = unwrap(await sdk.GET('/api/sudo/api-keys/permissions')).items.map((item) => item.permission);
    expect(grantable.length, 'more permissions than rows').to.be.greaterThan(24);
    const app = await connectedApp(server.baseUrl, SUPERUSER_TOKEN, {}, { columns: 80 });
    await openNewestKey(app, 'scrolled');
    await choose(app, 'Edit permissions');
    await app.waitFor((current) => current.includes('Permissions of scrolled') && current.includes('selected'));
    const from = app.frames.length;
    const last = grantable.at(-1)!;
    for (let i = 1; i < grantable.length; i++) await app.press(KEYS.down);
    let frame = await app.waitFor(`❯ [ ] ${last}`);
    expect(frame).to.contain(`row ${grantable.length} of ${grantable.length}`);
    expect(frame).to.match(/↑ \d+ more/);
    expect(frame).not.to.match(/↓ \d+ more/);
    expect(frame).not.to.contain(`[ ] ${grantable[0]} `);
    // Every frame on the way: the title and the hint line on screen, shorter than the 24 rows, no line past 80.
    const written = app.framesSince(from).filter((current) => current.includes('selected'));
    expect(written.length).to.be.greaterThan(grantable.length / 2);
    for (const current of written) {
      const lines = current.split('\n');
      expect(lines.length, current).to.be.below(24);
      expect(current).to.contain('Permissions of scrolled');
      expect(lines.at(-1)).to.contain('? help');
      for (const line of lines) expect([...line].length, line).to.be.at.most(80);
    }
    // ↓ on the last row wraps to the first.
    await app.press(KEYS.down);
    frame = await app.waitFor(`❯ [ ] ${grantable[0]}`);
    expect(frame).to.contain('row 1 of');
    expect(frame).to.contain('Permissions of scrolled');
  });

  it('creates a key on a fresh install: no SUPERUSER account yet, so choosing a seeded account offers it the role (No first)', async () => {
    // A fresh install: the seeded accounts are USER accounts, none can own a key yet.
    for (const account of unwrap(await sdk.GET('/api/sudo/users', { params: { query: { limit: 100 } } })).items) {
      if (account.role === 'SUPERUSER') unwrap(await sdk.PATCH('/api/sudo/users/{userId}', { params: { path: { userId: account.id } }, body: { role: 'USER' } }));
    }
    const admin = unwrap(await sdk.POST('/api/sudo/users', { body: { username: 'admin', name: 'Venue admin', password: PASSWORD } }));
    const app = await connectedApp(server.baseUrl, SUPERUSER_TOKEN, {}, { columns: 80 });
    await openSection(app, 'API keys');
    await choose(app, '+ Create API key');
    await app.waitFor('step 1 of 4: name');
    await typeInto(app, 'first-key');
    await app.press(KEYS.enter);
    let frame = await app.waitFor('No SUPERUSER account yet: choose one to give it the role.');
    expect(frame).to.contain('A key is owned by an account with the SUPERUSER account role');
    await choose(app, admin.email);
    frame = await app.waitFor('Give it the SUPERUSER account role, so it can own this key?');
    expect(frame).to.contain(`${admin.email} has the USER account role.`);
    expect(frame).to.match(/❯ No, choose another account/);
    // No: back to the list, nothing changed.
    await app.press(KEYS.enter);
    await app.waitFor('No SUPERUSER account yet');
    expect(unwrap(await sdk.GET('/api/sudo/users/{userId}', { params: { path: { userId: admin.id } } })).role).to.equal('USER');
    await choose(app, admin.email);
    await app.waitFor('Give it the SUPERUSER account role');
    await choose(app, `Yes, give ${admin.email} the SUPERUSER role`);
    frame = await app.waitFor((current) => current.includes('step 3 of 4: permissions') && current.includes('selected'));
    expect(frame).to.contain(`Owner: ${admin.email} (given the SUPERUSER account role)`);
    expect(unwrap(await sdk.GET('/api/sudo/users/{userId}', { params: { path: { userId: admin.id } } })).role).to.equal('SUPERUSER');
    await app.press(KEYS.enter);
    await app.waitFor('step 4 of 4: expiry');
    await app.press(KEYS.enter);
    frame = await app.waitFor('API key created');
    const key = KEY_PATTERN.exec(frame)?.[0];
    expect(key, frame).to.be.a('string');
    const stored = (await keys()).find((item) => item.name === 'first-key');
    expect(stored).to.include({ ownerEmail: admin.email, ownerId: admin.id, expiresAt: null });
    expect((await createClient({ baseUrl: server.baseUrl, apiKey: key }).GET('/api/auth/me')).response.status).to.equal(200);
  });

  it('cuts a long owner e-mail with … on the key\'s screen and in the list at 80 columns', async () => {
    const longEmail = `an-owner-with-a-really-long-mailbox-name@${'department.'.repeat(4)}example.test`;
    const owner = await makeSuperuser(longEmail);
    unwrap(await sdk.POST('/api/sudo/api-keys', { body: { name: 'long-owner', userId: owner.id, permissions: {} } }));
    const app = await connectedApp(server.baseUrl, SUPERUSER_TOKEN, {}, { columns: 80 });
    await openSection(app, 'API keys');
    let frame = await app.waitFor('long-owner');
    expect(frame).not.to.contain(longEmail);
    expect(frame).to.match(/an-owner-with\S*…/);
    await app.press(KEYS.down, KEYS.enter);
    frame = await app.waitFor('API key long-owner');
    expect(frame).not.to.contain(longEmail);
    expect(frame).to.match(/Owner\s+an-owner-with-a-really-long-mailbox-name@\S+…$/m);
    for (const line of frame.split('\n')) expect([...line].length, line).to.be.at.most(80);
  });
});
