import { expect } from 'chai';
import { unwrap, type VenueClient } from '../../sdk/index.ts';
import { buildOrganization } from '../helpers/factories.ts';
import { SUPERUSER_TOKEN, type TestServer } from '../helpers/server.ts';
import { connectedApp, KEYS, openSection, typeInto, useSuperuserServer, type RenderedApp } from './helpers.ts';

describe('tui: memberships', () => {
  let server: TestServer;
  let sdk: VenueClient;
  useSuperuserServer((s, c) => ([server, sdk] = [s, c]));

  async function openAttach(app: RenderedApp) {
    await openSection(app, 1, 'Memberships');
    await app.press(KEYS.enter);
    await app.waitFor((frame) => frame.includes('Attach an account to an organization') && frame.includes('Organization'));
  }
  /** Fills the attach form: account, then `orgSteps` × → on the organization, `roleSteps` × → on the role. */
  async function attach(app: RenderedApp, account: string, orgSteps: number, roleSteps: number) {
    await typeInto(app, account);
    await app.press(KEYS.enter, ...Array<string>(orgSteps).fill(KEYS.right), KEYS.enter, ...Array<string>(roleSteps).fill(KEYS.right), KEYS.enter);
  }

  it('attaches an account with the idempotent upsert and shows created, unchanged and updated', async () => {
    const organization = await buildOrganization({ name: 'Second Stage' });
    const member = unwrap(await sdk.POST('/api/sudo/users', { body: { email: 'member@example.test', name: 'Member', password: 'correct horse battery' } }));
    const app = await connectedApp(server.baseUrl, SUPERUSER_TOKEN);
    await openAttach(app);
    const organizations = unwrap(await sdk.GET('/api/sudo/organizations')).items;
    expect(app.frame()).to.contain(`[${organizations[0].name}]`);
    expect(app.frame()).to.contain('Second Stage');

    // Second organization (→ once), role admin (member → admin: → once).
    await attach(app, 'member@example.test', 1, 1);
    let frame = await app.waitFor('Outcome: created');
    expect(frame).to.contain('member@example.test is admin of Second Stage.');
    const memberships = () => sdk.GET('/api/sudo/organization-members', { params: { query: { userId: member.id } } }).then((result) => unwrap(result).items);
    expect((await memberships()).map((m) => [m.organization.id, m.role])).to.deep.equal([[organization.id, 'admin']]);

    await app.press(KEYS.enter);
    await app.waitFor((current) => current.includes('Attach an account to an organization') && !current.includes('Outcome'));
    await attach(app, 'member@example.test', 1, 1);
    await app.waitFor('Outcome: unchanged');

    await app.press(KEYS.enter);
    await app.waitFor((current) => current.includes('Attach an account to an organization') && !current.includes('Outcome'));
    await attach(app, 'member@example.test', 1, 2);
    frame = await app.waitFor('Outcome: updated');
    expect(frame).to.contain('member@example.test is owner of Second Stage.');
    expect((await memberships()).map((m) => m.role)).to.deep.equal(['owner']);
  });

  it('shows an unknown account as the server says (404)', async () => {
    const app = await connectedApp(server.baseUrl, SUPERUSER_TOKEN);
    await openAttach(app);
    await attach(app, 'nobody@example.test', 0, 0);
    const frame = await app.waitFor('✖ Not found');
    expect(frame).to.contain('404 · not_found');
  });

  it('lists memberships with organization names, and opens the member', async () => {
    const member = unwrap(await sdk.POST('/api/sudo/users', { body: { email: 'listed@example.test', name: 'Listed Person', password: 'correct horse battery' } }));
    unwrap(await sdk.POST('/api/sudo/ensure-organization-member', { body: { userId: member.id, role: 'kitchen_pos' } }));
    const [canonical] = unwrap(await sdk.GET('/api/sudo/organizations')).items;
    const app = await connectedApp(server.baseUrl, SUPERUSER_TOKEN);
    await openSection(app, 1, 'Memberships');
    await app.press(KEYS.down, KEYS.enter);
    let frame = await app.waitFor('listed@example.test');
    expect(frame).to.match(new RegExp(`${canonical.name}\\s+listed@example\\.test\\s+Listed Person\\s+kitchen_pos`));
    const total = unwrap(await sdk.GET('/api/sudo/organization-members')).items.length;
    expect(frame).to.contain(`${total} memberships`);

    const row = frame.split('\n').findIndex((line) => line.includes('listed@example.test'));
    const cursor = frame.split('\n').findIndex((line) => line.startsWith('❯'));
    await app.press(...Array<string>(row - cursor).fill(KEYS.down), KEYS.enter);
    frame = await app.waitFor('Account listed@example.test');
    await app.waitFor(new RegExp(`Memberships\\s+${canonical.name} \\(kitchen_pos\\)`));
  });
});
