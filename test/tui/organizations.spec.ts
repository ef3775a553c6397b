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
    await app.waitFor('Organization Old Name');
    await choose(app, 'Rename');
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
    // Back on the organization's screen, which shows the new name.
    await app.waitFor((frame) => frame.includes('✔ Renamed to New Name (new-name)') && frame.includes('Organization New Name'));
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

  it('lists one organization\'s members (long e-mails cut with …), and removes one with d', async () => {
    const org = unwrap(await sdk.POST('/api/sudo/organizations', { body: { name: 'Jazz Cellar', slug: 'jazz-cellar' } }));
    const longEmail = `a-very-long-mailbox-name-for-the-terminal-test@${'sub.'.repeat(6)}example.test`;
    for (const [email, role] of [[longEmail, 'owner'], ['second@example.test', 'member']] as const) {
      const account = unwrap(await sdk.POST('/api/sudo/users', { body: { email, name: `Member ${role}`, password: 'correct horse battery' } }));
      unwrap(await sdk.POST('/api/sudo/ensure-organization-member', { body: { userId: account.id, organizationId: org.id, role } }));
    }
    // A member of another organization is not listed.
    unwrap(await sdk.POST('/api/sudo/users', { body: { email: 'elsewhere@example.test', name: 'Elsewhere', password: 'correct horse battery' } }));
    unwrap(await sdk.POST('/api/sudo/ensure-organization-member', { body: { email: 'elsewhere@example.test', role: 'member' } }));

    const app = await connectedApp(server.baseUrl, SUPERUSER_TOKEN, {}, { columns: 80 });
    await openSection(app, 'Organizations');
    await app.waitFor('jazz-cellar');
    await choose(app, 'Jazz Cellar');
    let frame = await app.waitFor('Members (2)');
    expect(frame).to.match(/Members\s+2/);
    await choose(app, 'Members (2)');
    frame = await app.waitFor('2 members');
    expect(frame).to.contain('Members of Jazz Cellar');
    expect(frame).to.match(/second@example\.test\s+Member member\s+member/);
    expect(frame).not.to.contain('elsewhere@example.test');
    // The long e-mail is cut with … and no line is wider than the terminal.
    expect(frame).not.to.contain(longEmail);
    expect(frame).to.match(/a-very-long-mailbox-name\S*…\s+Member owner\s+owner/);
    for (const line of frame.split('\n')) expect([...line].length, line).to.be.at.most(80);

    await choose(app, 'second@example.test');
    await app.waitFor('Account second@example.test');
    await app.press(KEYS.escape);
    await app.waitFor('Members of Jazz Cellar');
    await app.press('d');
    await app.waitFor('Remove membership?');
    await choose(app, 'Yes, remove it');
    frame = await app.waitFor('1 member');
    expect(frame).to.contain('Members of Jazz Cellar');
    const left = unwrap(await sdk.GET('/api/sudo/organization-members', { params: { query: { organizationId: org.id } } })).items;
    expect(left.map((member) => member.accountEmail)).to.deep.equal([longEmail]);
  });

  it('deletes an organization without members; one with members is refused as the server says (409), the canonical one offers no delete', async () => {
    const empty = unwrap(await sdk.POST('/api/sudo/organizations', { body: { name: 'Empty Stage', slug: 'empty-stage' } }));
    const busy = unwrap(await sdk.POST('/api/sudo/organizations', { body: { name: 'Busy Stage', slug: 'busy-stage' } }));
    unwrap(await sdk.POST('/api/sudo/users', { body: { email: 'busy-member@example.test', name: 'Busy', password: 'correct horse battery' } }));
    unwrap(await sdk.POST('/api/sudo/ensure-organization-member', { body: { email: 'busy-member@example.test', organizationId: busy.id, role: 'member' } }));
    const app = await connectedApp(server.baseUrl, SUPERUSER_TOKEN, {}, { columns: 80 });
    await openSection(app, 'Organizations');
    await app.waitFor('busy-stage');

    await choose(app, 'Busy Stage');
    await app.waitFor('Members (1)');
    await choose(app, 'Delete…');
    let frame = await app.waitFor('Delete organization Busy Stage?');
    expect(frame).to.contain('It has 1 member');
    // "No" first: Enter keeps it.
    await app.press(KEYS.enter);
    await app.waitFor('Organization Busy Stage');
    await choose(app, 'Delete…');
    await app.waitFor('Delete organization Busy Stage?');
    await choose(app, 'Yes, delete Busy Stage');
    frame = await app.waitFor('409 · organization_has_members');
    expect(frame).to.contain('Busy Stage has 1 member; remove that membership first.');
    expect((await organizations()).some((o) => o.id === busy.id)).to.equal(true);
    await app.press(KEYS.escape);
    await app.waitFor('Organization Busy Stage');
    await app.press(KEYS.escape);
    await app.waitFor('Organizations');

    await choose(app, 'Empty Stage');
    frame = await app.waitFor('Members (0)');
    await choose(app, 'Delete…');
    frame = await app.waitFor('Delete organization Empty Stage?');
    expect(frame).to.contain('It has no members');
    await choose(app, 'Yes, delete Empty Stage');
    frame = await app.waitFor('✔ Deleted organization Empty Stage (empty-stage)');
    expect(frame).to.contain('+ Create organization');
    await app.waitFor((current) => /^\d+ organizations$/m.test(current) && !/Empty Stage\s+empty-stage/.test(current));
    expect((await organizations()).some((o) => o.id === empty.id)).to.equal(false);

    const [canonical] = await organizations();
    await choose(app, canonical.name);
    frame = await app.waitFor('yes (it cannot be deleted)');
    expect(frame).not.to.contain('Delete…');
  });
});
