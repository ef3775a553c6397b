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

    // Only SUPERUSER accounts can own keys.
    let frame = await app.waitFor('owner@example.test');
    expect(frame).to.contain('step 2 of 4');
    expect(frame).not.to.contain('plain@example.test');
    await app.press(KEYS.enter);

    // The permissions are the server's (GET /api/sudo/api-keys/permissions).
    frame = await app.waitFor((current) => current.includes('step 3 of 4: permissions') && current.includes('selected'));
    const grantable = unwrap(await sdk.GET('/api/sudo/api-keys/permissions')).items;
    expect(grantable.length).to.be.greaterThan(0);
    for (const { permission } of grantable) expect(frame).to.contain(`[ ] ${permission}`);
    // The key below calls GET /api/auth/me: tick `auth:read`, wherever the sorted list puts it.
    const authRead = grantable.findIndex(({ permission }) => permission === 'auth:read');
    expect(authRead).to.be.at.least(0);
    await app.press(...Array<string>(authRead).fill(KEYS.down), KEYS.space);
    await app.waitFor('[x] auth:read');
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
    expect(stored.permissions).to.deep.equal({ auth: ['read'] });
    expect(key!.startsWith(stored.start)).to.equal(true);
    // The key on screen is the real one.
    const me = await createClient({ baseUrl: server.baseUrl, apiKey: key }).GET('/api/auth/me');
    expect(me.response.status).to.equal(200);
    expect(me.data?.authSource).to.equal('api-key');

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
    const grantable = unwrap(await sdk.GET('/api/sudo/api-keys/permissions')).items.map((item) => item.permission);
    expect(grantable).to.include('auth:read');
    const app = await connectedApp(server.baseUrl, SUPERUSER_TOKEN);
    let frame = await openNewestKey(app, 'scoped');
    expect(frame).to.match(/Permissions\s+none/);
    await choose(app, 'Edit permissions');
    frame = await app.waitFor('Permissions of scoped');
    await app.waitFor('auth:read');
    // Move to auth:read by its position in the checklist, tick it, save.
    const lines = app.frame().split('\n');
    const steps = lines.findIndex((line) => line.includes('auth:read')) - lines.findIndex((line) => line.startsWith('❯'));
    await app.press(...Array<string>(steps).fill(KEYS.down), KEYS.space, KEYS.enter);
    frame = await app.waitFor('✔ scoped now holds auth:read');
    expect(frame).to.match(/Permissions\s+auth:read/);
    expect((await keys()).find((key) => key.id === apiKey.id)?.permissions).to.deep.equal({ auth: ['read'] });

    // Opened again, the checklist starts ticked; unticking everything leaves none.
    await choose(app, 'Edit permissions');
    await app.waitFor(/\[x\] auth:read|◉ auth:read|✔ auth:read|\[✓\] auth:read/);
    const again = app.frame().split('\n');
    const back = again.findIndex((line) => line.includes('auth:read')) - again.findIndex((line) => line.startsWith('❯'));
    await app.press(...Array<string>(back).fill(KEYS.down), KEYS.space, KEYS.enter);
    await app.waitFor('✔ scoped now holds no permissions');
    expect((await keys()).find((key) => key.id === apiKey.id)?.permissions).to.deep.equal({});
  });
});
