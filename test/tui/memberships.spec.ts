import { expect } from 'chai';
import { unwrap, type VenueClient } from '../../sdk/index.ts';
import { buildOrganization } from '../helpers/factories.ts';
import { SUPERUSER_TOKEN, type TestServer } from '../helpers/server.ts';
import { choose, connectedApp, KEYS, openSection, typeInto, useSuperuserServer, type RenderedApp } from './helpers.ts';

describe('tui: memberships', () => {
  let server: TestServer;
  let sdk: VenueClient;
  useSuperuserServer((s, c) => ([server, sdk] = [s, c]));

  async function openAttach(app: RenderedApp) {
    await openSection(app, 'Memberships');
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
    await openSection(app, 'Memberships');
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
  it('removes a membership after confirmation ("No" keeps it), and refreshes with r', async () => {
    const organization = await buildOrganization({ name: 'Side Room' });
    const member = unwrap(await sdk.POST('/api/sudo/users', { body: { email: 'leaving@example.test', name: 'Leaving', password: 'correct horse battery' } }));
    unwrap(await sdk.POST('/api/sudo/ensure-organization-member', { body: { userId: member.id, organizationId: organization.id, role: 'member' } }));
    const memberships = async () => unwrap(await sdk.GET('/api/sudo/organization-members', { params: { query: { userId: member.id } } })).items;
    const app = await connectedApp(server.baseUrl, SUPERUSER_TOKEN);
    await openSection(app, 'Memberships');
    await choose(app, 'List memberships');
    await app.waitFor('leaving@example.test');
    const lines = app.frame().split('\n');
    const steps = lines.findIndex((line) => line.includes('leaving@example.test')) - lines.findIndex((line) => line.startsWith('❯'));
    await app.press(...Array<string>(steps).fill(KEYS.down));
    await app.waitFor(/❯ Side Room\s+leaving@example\.test/);
    await app.press('d');
    let frame = await app.waitFor('Remove membership?');
    expect(frame).to.contain('Remove leaving@example.test (member) from Side Room?');
    await app.press(KEYS.enter);
    await app.waitFor((current) => current.includes('leaving@example.test') && !current.includes('Remove membership?'));
    expect(await memberships()).to.have.length(1);

    await app.press('d');
    await app.waitFor('Remove membership?');
    await choose(app, 'Yes, remove it');
    frame = await app.waitFor('✔ Removed leaving@example.test from Side Room');
    await app.waitFor((current) => !/Side Room\s+leaving@example\.test/.test(current));
    expect(await memberships()).to.deep.equal([]);

    unwrap(await sdk.POST('/api/sudo/ensure-organization-member', { body: { userId: member.id, organizationId: organization.id, role: 'admin' } }));
    await app.press('r');
    await app.waitFor(/Side Room\s+leaving@example\.test\s+Leaving\s+admin/);

  });

  it('shows the refusal to remove the canonical organization\'s last owner (409 last_canonical_owner)', async () => {
    const [canonical] = unwrap(await sdk.GET('/api/sudo/organizations')).items;
    await server.db.knex('organization_members').where({ organization_id: canonical.id, role: 'owner' }).delete();
    const owner = unwrap(await sdk.POST('/api/sudo/users', { body: { email: 'only-owner@example.test', name: 'Only Owner', password: 'correct horse battery' } }));
    unwrap(await sdk.POST('/api/sudo/ensure-organization-member', { body: { userId: owner.id, role: 'owner' } }));
    const app = await connectedApp(server.baseUrl, SUPERUSER_TOKEN);
    await openSection(app, 'Memberships');
    await choose(app, 'List memberships');
    await app.waitFor('only-owner@example.test');
    const lines = app.frame().split('\n');
    const steps = lines.findIndex((line) => line.includes('only-owner@example.test')) - lines.findIndex((line) => line.startsWith('❯'));
    await app.press(...Array<string>(steps).fill(KEYS.down), 'd');
    await app.waitFor('Remove membership?');
    await choose(app, 'Yes, remove it');
    const frame = await app.waitFor('409 · last_canonical_owner');
    expect(frame).to.contain('Remove membership?');
    expect(unwrap(await sdk.GET('/api/sudo/organization-members', { params: { query: { userId: owner.id } } })).items).to.have.length(1);
  });
});
