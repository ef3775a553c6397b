import { expect } from 'chai';
import { unwrap, type VenueClient } from '../../sdk/index.ts';
import { fitCell, fitColumns, formatRow } from '../../tui/ui/Table.tsx';
import { SUPERUSER_TOKEN, type TestServer } from '../helpers/server.ts';
import { connectedApp, KEYS, openSection, useSuperuserServer, type RenderedApp } from './helpers.ts';

const WIDTH = 80;
const LONG = 'x'.repeat(120);

/**
 * Every line fits 80 columns, and the row's cells sit under their headers: where a column starts (as the header
 * line shows it) the row has the gap before it, and the long values fill their cells up to the gap with `…`.
 */
function expectFits(frame: string, headers: string[], rowMarker: string) {
  const lines = frame.split('\n');
  for (const line of lines) expect([...line].length, `too wide:\n${line}`).to.be.at.most(WIDTH);
  const headerLine = lines.find((line) => line.trimStart().startsWith(headers[0]));
  expect(headerLine, `no header "${headers[0]}" in\n${frame}`).to.be.a('string');
  const row = lines.find((line) => line.includes(rowMarker));
  expect(row, `no row with "${rowMarker}" in\n${frame}`).to.be.a('string');
  let from = 0;
  const starts = headers.map((header) => (from = headerLine!.indexOf(header, from)));
  const cells = [...row!];
  for (const start of starts.slice(1)) {
    expect(headerLine![start - 1], headerLine).to.equal(' ');
    expect(cells[start - 1] ?? ' ', `column at ${start}:\n${headerLine}\n${row}`).to.equal(' ');
  }
  // The first column's long value is cut right before the second column.
  expect(cells[starts[1] - 2], `${headerLine}\n${row}`).to.equal('…');
}

describe('tui: tables fit an 80-column terminal', () => {
  let server: TestServer;
  let sdk: VenueClient;
  useSuperuserServer((s, c) => ([server, sdk] = [s, c]));

  before(async () => {
    const owner = unwrap(
      await sdk.POST('/api/sudo/users', { body: { email: `${'long'.repeat(30)}@example.test`, name: `Name ${LONG}`, password: 'correct horse battery', role: 'SUPERUSER' } }),
    );
    const organization = unwrap(await sdk.POST('/api/sudo/organizations', { body: { name: `Organization ${LONG}`, slug: `slug-${'s'.repeat(55)}` } }));
    unwrap(await sdk.POST('/api/sudo/ensure-organization-member', { body: { userId: owner.id, organizationId: organization.id, role: 'kitchen_pos' } }));
    unwrap(await sdk.POST('/api/sudo/api-keys', { body: { name: `key ${'k'.repeat(90)}`, userId: owner.id, permissions: {} } }));
  });

  const open = async (title: string) => {
    const app = await connectedApp(server.baseUrl, SUPERUSER_TOKEN, {}, { columns: WIDTH });
    await openSection(app, title);
    return app;
  };
  const settled = (app: RenderedApp, marker: string) => app.waitFor((frame) => frame.includes(marker) && !frame.includes('Loading'));

  it('accounts', async () => {
    const app = await open('Accounts');
    expectFits(await settled(app, 'longlong'), ['E-MAIL', 'NAME', 'ROLE', 'STATE'], 'longlong');
  });

  it('organizations', async () => {
    const app = await open('Organizations');
    expectFits(await settled(app, 'Organization xxx'), ['NAME', 'SLUG', 'CANONICAL'], 'Organization xxx');
  });

  it('memberships', async () => {
    const app = await open('Memberships');
    await app.press(KEYS.down, KEYS.enter);
    expectFits(await settled(app, 'Organization xxx'), ['ORGANIZATION', 'E-MAIL', 'NAME', 'ROLE', 'SINCE'], 'Organization xxx');
  });

  it('API keys', async () => {
    const app = await open('API keys');
    expectFits(await settled(app, 'key kkk'), ['NAME', 'START', 'OWNER', 'ON', 'EXPIRES', 'LAST USED'], 'key kkk');
  });

  it('jobs', async () => {
    const app = await open('Jobs');
    const frame = await settled(app, 'email.send');
    for (const line of frame.split('\n')) expect([...line].length).to.be.at.most(WIDTH);
    expect(frame).to.match(/QUEUE\s+QUEUED\s+RETRY\s+ACTIVE\s+DONE\s+FAILED\s+CANCELLED/);
  });

  it('the main menu and the help overlay', async () => {
    const app = await connectedApp(server.baseUrl, SUPERUSER_TOKEN, {}, { columns: WIDTH });
    for (const line of app.frame().split('\n')) expect([...line].length).to.be.at.most(WIDTH);
    await app.press('?');
    const help = await app.waitFor('Help: Main menu');
    for (const line of help.split('\n')) expect([...line].length).to.be.at.most(WIDTH);
  });

  it('cuts cells with … and pads them, so rows and headers share their columns', () => {
    expect(fitCell('abcdef', 4)).to.equal('abc…');
    expect(fitCell('ab', 4)).to.equal('ab  ');
    expect(fitCell('7', 3, 'right')).to.equal('  7');
    expect(fitCell('line\nbreak', 20)).to.equal('line break          ');
    const widths = fitColumns([{ header: 'A', grow: 1 }, { header: 'B', width: 5 }, { header: 'C', grow: 3 }], 77);
    expect(widths.reduce((sum, width) => sum + width, 0) + 2).to.equal(77);
    expect(widths[1]).to.equal(5);
    expect(formatRow(['x'.repeat(100), 'y', 'z'], widths).length).to.be.at.most(77);
  });
});
