import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { expect } from 'chai';
import { unwrap } from '../../sdk/index.ts';
import { startTestServer, SUPERUSER_TOKEN, type TestServer } from '../helpers/server.ts';
import { eventually } from '../helpers/eventually.ts';

const run = promisify(execFile);
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const TMUX_CANDIDATES = ['/usr/bin/tmux', '/usr/local/bin/tmux', '/opt/homebrew/bin/tmux'];

/** Where tmux is, if anywhere; the terminal tests skip with a message without it. */
const TMUX = await (async () => {
  for (const candidate of TMUX_CANDIDATES) {
    if (await fs.promises.access(candidate, fs.constants.X_OK).then(() => true, () => false)) return candidate;
  }
  return undefined;
})();

const shellQuote = (value: string) => `'${value.replace(/'/g, `'\\''`)}'`;

/**
 * The terminal app as a user runs it (`node --import tsx tui/main.tsx`) in a real pseudo-terminal: a tmux session
 * (120×40 unless told) on a private tmux server (its own socket), driven by `send-keys`, read by `capture-pane`.
 */
class TerminalSession {
  readonly socket = `venue-tui-${process.pid}-${Math.random().toString(36).slice(2, 8)}`;
  readonly exitFile = path.join(os.tmpdir(), `${this.socket}.exit`);
  private socketPath?: string;

  private tmux(...args: string[]) {
    return run(TMUX!, ['-L', this.socket, ...args], { cwd: ROOT });
  }

  async start(env: Record<string, string>, size: { columns: number; rows: number } = { columns: 120, rows: 40 }) {
    // Ink draws nothing interactive when it believes it runs in CI, so those variables are dropped in the pane.
    const assignments = Object.entries(env).map(([name, value]) => `${name}=${shellQuote(value)}`);
    const command = `env -u CI -u CONTINUOUS_INTEGRATION ${assignments.join(' ')} node --import tsx tui/main.tsx; echo $? > ${shellQuote(this.exitFile)}`;
    await this.tmux('new-session', '-d', '-s', 'tui', '-x', String(size.columns), '-y', String(size.rows), '-c', ROOT, command);
    this.socketPath = (await this.tmux('display-message', '-p', '#{socket_path}')).stdout.trim();
  }

  /** Keys by tmux name (`Enter`, `Down`, `Escape`) or, with `literal`, text typed as is. */
  async send(keys: string[], options: { literal?: boolean } = {}) {
    for (const key of keys) {
      await this.tmux('send-keys', '-t', 'tui', ...(options.literal ? ['-l'] : []), key);
      // One key per write, as a person types: the app handles each before the next arrives.
      await new Promise((resolve) => setTimeout(resolve, 60));
    }
  }

  async screen(): Promise<string> {
    return (await this.tmux('capture-pane', '-p', '-t', 'tui')).stdout;
  }

  /** Polls the pane until `expected` is on it. */
  async waitFor(expected: string | RegExp, timeoutMs = 20_000): Promise<string> {
    return eventually(() => this.screen().catch((error: Error) => `(no pane: ${error.message})`), {
      until: (screen) => (typeof expected === 'string' ? screen.includes(expected) : expected.test(screen)),
      timeoutMs,
      intervalMs: 100,
      what: `${expected} in the terminal`,
    });
  }

  async alive(): Promise<boolean> {
    return this.tmux('has-session', '-t', 'tui').then(
      () => true,
      () => false,
    );
  }

  /** The app's exit status once it has ended (the pane closes with it). */
  async exitStatus(timeoutMs = 10_000): Promise<number> {
    const status = await eventually(() => fs.existsSync(this.exitFile) && fs.readFileSync(this.exitFile, 'utf8').trim(), { timeoutMs, intervalMs: 100, orLast: true, until: Boolean });
    if (!status) throw new Error(`The terminal app did not exit; it shows:\n${await this.screen().catch(() => '(no pane)')}`);
    return Number(status);
  }

  async close() {
    await this.tmux('kill-server').catch(() => undefined);
    // tmux leaves its socket file behind.
    if (this.socketPath) fs.rmSync(this.socketPath, { force: true });
    fs.rmSync(this.exitFile, { force: true });
  }
}

/** A pseudo-terminal suite's server; the suite is skipped (and says why) where tmux is not installed. */
async function tmuxSuiteServer(context: Mocha.Context): Promise<TestServer> {
  if (!TMUX) {
    console.log(`      tmux is not installed (looked for ${TMUX_CANDIDATES.join(', ')}): skipping the pseudo-terminal tests. apt-get install -y tmux to run them.`);
    context.skip();
  }
  return startTestServer();
}

describe('tui: in a real terminal (tmux)', function () {
  this.timeout(90_000);
  let server: TestServer;
  let session: TerminalSession | undefined;

  before(async function () {
    server = await tmuxSuiteServer(this);
  });
  after(() => server?.close());
  afterEach(() => session?.close());

  it('connects from VENUE_URL and VENUE_SUPERUSER_TOKEN, lists accounts, searches, shows help, and quits with q', async () => {
    const sdk = server.client({ superuserToken: SUPERUSER_TOKEN });
    unwrap(await sdk.POST('/api/sudo/users', { body: { email: 'tmux-one@example.test', name: 'Terminal One', password: 'correct horse battery' } }));
    unwrap(await sdk.POST('/api/sudo/users', { body: { email: 'tmux-two@example.test', name: 'Terminal Two', password: 'correct horse battery' } }));
    session = new TerminalSession();
    await session.start({ VENUE_URL: server.baseUrl, VENUE_SUPERUSER_TOKEN: SUPERUSER_TOKEN });

    let screen = await session.waitFor('Main menu');
    expect(screen).to.contain(`Venue terminal · ${server.baseUrl} · superuser (api-token)`);
    expect(screen).to.match(/❯ Accounts/);
    expect(screen).to.contain('↑/↓ move · enter open · esc disconnect · q quit · ? help');

    // ↑ wraps to the last entry, ↓ back to the first.
    await session.send(['Up']);
    await session.waitFor(/❯ Seed and maintenance/);
    await session.send(['Down', 'Enter']);
    screen = await session.waitFor('page 1 of 1, total 2');
    expect(screen).to.match(/tmux-two@example\.test\s+Terminal Two\s+USER\s+active/);
    expect(screen).to.match(/tmux-one@example\.test\s+Terminal One\s+USER\s+active/);

    await session.send(['/']);
    await session.waitFor('enter open the first match');
    await session.send(['one'], { literal: true });
    screen = await session.waitFor('page 1 of 1, total 1');
    expect(screen).not.to.contain('tmux-two@example.test');
    // Enter in the search opens the first match; Esc comes back to the filtered list.
    await session.send(['Enter']);
    await session.waitFor('Account tmux-one@example.test');
    await session.send(['Escape']);
    await session.waitFor('(matching "one")');

    await session.send(['?']);
    screen = await session.waitFor('Help: Accounts');
    expect(screen).to.contain('quit (not while typing in a text field)');
    await session.send(['Escape']);
    await session.waitFor('(matching "one")');

    await session.send(['q']);
    expect(await session.exitStatus()).to.equal(0);
    expect(await session.alive()).to.equal(false);
  });

  it('shows a wrong token on the error screen, then connects with a token typed (masked) at the prompt', async () => {
    session = new TerminalSession();
    await session.start({ VENUE_URL: server.baseUrl, VENUE_SUPERUSER_TOKEN: 'wrong-token' });
    let screen = await session.waitFor('Could not connect');
    expect(screen).to.contain('Authentication required');
    expect(screen).to.contain('401 · unauthenticated');
    expect(screen).not.to.match(/^\s+at .+:\d+:\d+\)?$/m);

    await session.send(['Escape']);
    await session.waitFor('Connect to a venue server');
    await session.send(Array<string>('wrong-token'.length).fill('BSpace'));
    await session.waitFor(/Superuser token\s*$/m);
    await session.send([SUPERUSER_TOKEN], { literal: true });
    screen = await session.waitFor('*'.repeat(SUPERUSER_TOKEN.length));
    expect(screen).not.to.contain(SUPERUSER_TOKEN);
    await session.send(['Enter']);
    await session.waitFor('Main menu');

    // Esc on the main menu disconnects; Esc on the prompt leaves the app.
    await session.send(['Escape']);
    await session.waitFor('Connect to a venue server');
    await session.send(['Escape']);
    expect(await session.exitStatus()).to.equal(0);
  });
});

describe('tui: in a real terminal of exactly 80×24 (tmux)', function () {
  this.timeout(120_000);
  const SIZE = { columns: 80, rows: 24 };
  let server: TestServer;
  let session: TerminalSession | undefined;

  before(async function () {
    server = await tmuxSuiteServer(this);
  });
  after(() => server?.close());
  afterEach(() => session?.close());

  /** The pane as 24 lines of at most 80 columns: nothing wrapped, nothing past the bottom. */
  function expectFits(screen: string) {
    const lines = screen.replace(/\n$/, '').split('\n');
    expect(lines.length, screen).to.be.at.most(SIZE.rows);
    for (const line of lines) expect([...line].length, line).to.be.at.most(SIZE.columns);
  }

  it('creates the first API key on a fresh install: gives a seeded account the SUPERUSER role, scrolls the checklist to its last row with the title in view', async () => {
    const sdk = server.client({ superuserToken: SUPERUSER_TOKEN });
    // What `npm start` seeds: USER accounts only, none of which can own a key yet.
    const admin = unwrap(await sdk.POST('/api/sudo/users', { body: { username: 'admin', name: 'Venue admin', password: 'correct horse battery' } }));
    const grantable = unwrap(await sdk.GET('/api/sudo/api-keys/permissions')).items.map((item) => item.permission);
    expect(grantable.length).to.be.greaterThan(SIZE.rows);
    session = new TerminalSession();
    await session.start({ VENUE_URL: server.baseUrl, VENUE_SUPERUSER_TOKEN: SUPERUSER_TOKEN }, SIZE);
    await session.waitFor('Main menu');
    await session.send(['Down', 'Down', 'Down', 'Enter']);
    await session.waitFor('+ Create API key');
    await session.send(['Enter']);
    await session.waitFor('step 1 of 4: name');
    await session.send(['terminal-key'], { literal: true });
    await session.send(['Enter']);
    let screen = await session.waitFor('No SUPERUSER account yet');
    expect(screen).to.contain('A key is owned by an account with the SUPERUSER account role');
    expect(screen).to.match(new RegExp(`❯ ${admin.email.replace(/\./g, '\\.')}\\s+Venue admin\\s+USER`));
    await session.send(['Enter']);
    screen = await session.waitFor('Give it the SUPERUSER account role');
    expectFits(screen);
    await session.send(['Down', 'Enter']);

    const title = 'Create API key · step 3 of 4: permissions';
    screen = await session.waitFor(`0 of ${grantable.length} selected`);
    expect(screen.split('\n')[2]).to.equal(title);
    expectFits(screen);
    // Down to the last row, a few keys at a time: the title stays on the pane's third line all the way.
    for (let moved = 0; moved < grantable.length - 1; ) {
      const step = Math.min(7, grantable.length - 1 - moved);
      await session.send(Array<string>(step).fill('Down'));
      moved += step;
      screen = await session.waitFor(`row ${moved + 1} of ${grantable.length}`);
      expect(screen.split('\n')[2], screen).to.equal(title);
      expect(screen, screen).to.contain('? help');
      expectFits(screen);
    }
    expect(screen).to.contain(`❯ [ ] ${grantable.at(-1)}`);
    expect(screen).to.match(/↑ \d+ more/);
    await session.send(['Space']);
    screen = await session.waitFor(`❯ [x] ${grantable.at(-1)}`);
    expect(screen.split('\n')[2]).to.equal(title);
    await session.send(['Enter']);
    await session.waitFor('step 4 of 4: expiry');
    await session.send(['Enter']);
    screen = await session.waitFor('API key created');
    expect(screen).to.contain(admin.email);
    const [stored] = unwrap(await sdk.GET('/api/sudo/api-keys')).items;
    expect(stored).to.include({ name: 'terminal-key', ownerId: admin.id });
    expect(Object.entries(stored.permissions).flatMap(([resource, actions]) => actions.map((action) => `${resource}:${action}`))).to.deep.equal([grantable.at(-1)]);
    await session.send(['q']);
    expect(await session.exitStatus()).to.equal(0);
  });

  it('cuts long e-mails with …, lists one organization\'s members, and deletes an organization', async () => {
    const sdk = server.client({ superuserToken: SUPERUSER_TOKEN });
    const longEmail = `someone-with-a-very-long-address@${'events.'.repeat(5)}example.test`;
    const org = unwrap(await sdk.POST('/api/sudo/organizations', { body: { name: 'Terrace', slug: 'terrace' } }));
    unwrap(await sdk.POST('/api/sudo/organizations', { body: { name: 'Annex', slug: 'annex' } }));
    const member = unwrap(await sdk.POST('/api/sudo/users', { body: { email: longEmail, name: 'Long Address', password: 'correct horse battery' } }));
    unwrap(await sdk.POST('/api/sudo/ensure-organization-member', { body: { userId: member.id, organizationId: org.id, role: 'admin' } }));
    session = new TerminalSession();
    await session.start({ VENUE_URL: server.baseUrl, VENUE_SUPERUSER_TOKEN: SUPERUSER_TOKEN }, SIZE);
    await session.waitFor('Main menu');

    // The accounts list and the account's screen: the e-mail is cut, never wrapped.
    await session.send(['Enter']);
    let screen = await session.waitFor('Long Address');
    expect(screen).not.to.contain(longEmail);
    expect(screen).to.match(/someone-with-a-very-long\S*…/);
    expectFits(screen);
    await session.send(['Escape']);
    await session.waitFor('Main menu');

    // Organizations → Terrace → Members.
    await session.send(['Down', 'Enter']);
    screen = await session.waitFor('terrace');
    const lines = screen.split('\n');
    const downs = lines.findIndex((line) => /^\s+Terrace\s+terrace/.test(line)) - lines.findIndex((line) => line.startsWith('❯'));
    await session.send([...Array<string>(downs).fill('Down'), 'Enter']);
    screen = await session.waitFor('Members (1)');
    expect(screen).to.contain('Organization Terrace');
    await session.send(['Enter']);
    screen = await session.waitFor('Members of Terrace');
    screen = await session.waitFor('1 member');
    expect(screen).to.match(/someone-with-a-very-long\S*…\s+Long Address\s+admin/);
    expect(screen).not.to.contain(longEmail);
    expectFits(screen);
    await session.send(['Escape']);
    await session.waitFor('Organization Terrace');
    await session.send(['Escape']);
    screen = await session.waitFor('annex');

    // Annex has no members: Delete… → Yes.
    const again = screen.split('\n');
    const toAnnex = again.findIndex((line) => /^\s+Annex\s+annex/.test(line)) - again.findIndex((line) => line.startsWith('❯'));
    await session.send([...Array<string>(Math.abs(toAnnex)).fill(toAnnex > 0 ? 'Down' : 'Up'), 'Enter']);
    await session.waitFor('Members (0)');
    await session.send(['Down', 'Down', 'Enter']);
    await session.waitFor('Delete organization Annex?');
    await session.send(['Down', 'Enter']);
    screen = await session.waitFor('✔ Deleted organization Annex (annex)');
    expectFits(screen);
    expect(unwrap(await sdk.GET('/api/sudo/organizations')).items.map((o) => o.slug)).not.to.include('annex');
    await session.send(['q']);
    expect(await session.exitStatus()).to.equal(0);
  });
});
