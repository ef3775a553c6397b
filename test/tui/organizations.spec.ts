import { expect } from 'chai';
import { unwrap, type VenueClient } from '../../sdk/index.ts';
import { SUPERUSER_TOKEN, type TestServer } from '../helpers/server.ts';
import { choose, connectedApp, KEYS, openSection, typeInto, useSuperuserServer } from './helpers.ts';

describe('tui: organizations', () => {
  let server: TestServer;
  let sdk: VenueClient;
  useSuperuserServer((s, c) => ([server, sdk] = [s, c]));
  const organizations = async () => unwrap(await sdk.GET('/api/sudo/organizations')).items;

  it('lists organizations, the canonical one first, and creates one (slug made from the name)', async () => {
    const app = await connectedApp(server.baseUrl, SUPERUSER_TOKEN);
    await openSection(app, 'Organizations');
    const [canonical] = await organizations();
    let frame = await app.waitFor(canonical.slug);
    expect(frame).to.match(new RegExp(`${canonical.name}\\s+${canonical.slug}\\s+yes`));
    await choose(app, '+ Create organization');
    await app.waitFor('Create organization');
    await typeInto(app, 'Rooftop Bar');
    await app.press(KEYS.enter, KEYS.enter);
    frame = await app.waitFor('✔ Created Rooftop Bar (rooftop-bar)');
    await app.waitFor(/Rooftop Bar\s+rooftop-bar/);
    expect((await organizations()).find((o) => o.slug === 'rooftop-bar')).to.include({ name: 'Rooftop Bar', canonical: false });
  });

  it('renames an organization, and shows a taken slug as the server says (409)', async () => {
    unwrap(await sdk.POST('/api/sudo/organizations', { body: { name: 'Old Name', slug: 'old-name' } }));
    unwrap(await sdk.POST('/api/sudo/organizations', { body: { name: 'Holder', slug: 'held' } }));
    const app = await connectedApp(server.baseUrl, SUPERUSER_TOKEN);
    await openSection(app, 'Organizations');
    await app.waitFor('old-name');
    await choose(app, 'Old Name');
    await app.waitFor('Rename Old Name');
    for (let i = 0; i < 'Old Name'.length; i++) await app.press(KEYS.backspace);
    await typeInto(app, 'New Name');
    await app.press(KEYS.enter);
    for (let i = 0; i < 'old-name'.length; i++) await app.press(KEYS.backspace);
    await typeInto(app, 'held');
    await app.press(KEYS.enter);
    const frame = await app.waitFor('409 · slug_taken');
    expect(frame).to.contain('Rename Old Name');
    for (let i = 0; i < 'held'.length; i++) await app.press(KEYS.backspace);
    await typeInto(app, 'new-name');
    await app.press(KEYS.enter);
    await app.waitFor('✔ Renamed to New Name (new-name)');
    expect((await organizations()).find((o) => o.slug === 'new-name')).to.include({ name: 'New Name' });
  });

  it('refreshes the list with r', async () => {
    const app = await connectedApp(server.baseUrl, SUPERUSER_TOKEN);
    await openSection(app, 'Organizations');
    // Loaded: the count line under the table ("1 organization", "3 organizations"), not "Loading organizations…".
    await app.waitFor((frame) => frame.split('\n').some((line) => /^\d+ organizations?$/.test(line.trim())));
    unwrap(await sdk.POST('/api/sudo/organizations', { body: { name: 'Made Elsewhere', slug: 'made-elsewhere' } }));
    expect(app.frame()).not.to.contain('Made Elsewhere');
    await app.press('r');
    await app.waitFor('Made Elsewhere');
  });
});
