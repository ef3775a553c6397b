import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { expect } from 'chai';
import { unwrap } from '../../sdk/index.ts';
import { startTestServer, SUPERUSER_TOKEN, type TestServer } from '../helpers/server.ts';

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
 * of 120×40 on a private tmux server (its own socket), driven by `send-keys`, read by `capture-pane`.
 */
class TerminalSession {
  readonly socket = `venue-tui-${process.pid}-${Math.random().toString(36).slice(2, 8)}`;
  readonly exitFile = path.join(os.tmpdir(), `${this.socket}.exit`);
  private socketPath?: string;

  private tmux(...args: string[]) {
    return run(TMUX!, ['-L', this.socket, ...args], { cwd: ROOT });
  }

  async start(env: Record<string, string>) {
    // Ink draws nothing interactive when it believes it runs in CI, so those variables are dropped in the pane.
    const assignments = Object.entries(env).map(([name, value]) => `${name}=${shellQuote(value)}`);
    const command = `env -u CI -u CONTINUOUS_INTEGRATION ${assignments.join(' ')} node --import tsx tui/main.tsx; echo $? > ${shellQuote(this.exitFile)}`;
    await this.tmux('new-session', '-d', '-s', 'tui', '-x', '120', '-y', '40', '-c', ROOT, command);
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
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const screen = await this.screen().catch((error: Error) => `(no pane: ${error.message})`);
      if (typeof expected === 'string' ? screen.includes(expected) : expected.test(screen)) return screen;
      if (Date.now() > deadline) throw new Error(`Timed out waiting for ${expected} in the terminal; it shows:\n${screen}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  async alive(): Promise<boolean> {
    return this.tmux('has-session', '-t', 'tui').then(
      () => true,
      () => false,
    );
  }

  /** The app's exit status once it has ended (the pane closes with it). */
  async exitStatus(timeoutMs = 10_000): Promise<number> {
    const deadline = Date.now() + timeoutMs;
    while (!fs.existsSync(this.exitFile) || !fs.readFileSync(this.exitFile, 'utf8').trim()) {
      if (Date.now() > deadline) throw new Error(`The terminal app did not exit; it shows:\n${await this.screen().catch(() => '(no pane)')}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    return Number(fs.readFileSync(this.exitFile, 'utf8').trim());
  }

  async close() {
    await this.tmux('kill-server').catch(() => undefined);
    // tmux leaves its socket file behind.
    if (this.socketPath) fs.rmSync(this.socketPath, { force: true });
    fs.rmSync(this.exitFile, { force: true });
  }
}

describe('tui: in a real terminal (tmux)', function () {
  this.timeout(90_000);
  let server: TestServer;
  let session: TerminalSession | undefined;

  before(async function () {
    if (!TMUX) {
      console.log(`      tmux is not installed (looked for ${TMUX_CANDIDATES.join(', ')}): skipping the pseudo-terminal tests. apt-get install -y tmux to run them.`);
      this.skip();
    }
    server = await startTestServer();
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
