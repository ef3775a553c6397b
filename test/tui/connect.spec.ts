import net from 'node:net';
import { expect } from 'chai';
import { cleanup } from 'ink-testing-library';
import { startTestServer, SUPERUSER_TOKEN, type TestServer } from '../helpers/server.ts';
import { KEYS, renderApp, typeInto, waitForFrame } from './helpers.ts';

/** A port nothing listens on: bound, then released. */
async function closedPort(): Promise<number> {
  const probe = net.createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as net.AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

const STACK_LINE = /^\s+at .+:\d+:\d+\)?$/m;

describe('tui: connecting', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(() => server.close());
  afterEach(() => cleanup());

  it('connects with the token given (VENUE_SUPERUSER_TOKEN) and shows who it is and which server', async () => {
    const app = renderApp({ url: server.baseUrl, token: SUPERUSER_TOKEN });
    const frame = await app.waitFor('Main menu');
    expect(frame).to.contain(server.baseUrl);
    expect(frame).to.contain('superuser (api-token)');
    for (const section of ['Accounts', 'Memberships', 'API keys', 'Seed and maintenance']) expect(frame).to.contain(section);
    expect(frame).to.match(/esc disconnect · q quit · \? help/);
  });

  it('shows a wrong token as an error screen (title and detail), retries with Enter, and goes back to the prompt with Esc', async () => {
    const app = renderApp({ url: server.baseUrl, token: 'not-the-token' });
    let frame = await app.waitFor('Could not connect');
    expect(frame).to.contain('Authentication required');
    expect(frame).to.contain('401 · unauthenticated');
    expect(frame).to.contain('The token was not accepted');
    expect(frame).to.contain(server.baseUrl);
    expect(frame).to.contain('enter retry · esc back to the connect prompt');
    expect(frame).not.to.match(STACK_LINE);

    // Enter tries again: the spinner, then the same error.
    const before = app.frames.length;
    await app.press(KEYS.enter);
    await waitForFrame(
      () => app.framesSince(before).join('\n'),
      (written) => /Connecting to[\s\S]*Could not connect/.test(written),
    );
    expect(app.frame()).to.contain('Authentication required');

    // Esc: the prompt, URL kept, the token field focused and masked.
    await app.press(KEYS.escape);
    frame = await app.waitFor('Connect to a venue server');
    expect(frame).to.contain(server.baseUrl);
    expect(frame).not.to.contain('not-the-token');
    for (let i = 0; i < 'not-the-token'.length; i++) await app.press(KEYS.backspace);
    await app.waitFor((current) => !current.includes('*'));
    await typeInto(app, SUPERUSER_TOKEN, { masked: true });
    expect(app.frame()).not.to.contain(SUPERUSER_TOKEN);
    await app.press(KEYS.enter);
    frame = await app.waitFor('Main menu');
    expect(frame).to.contain('superuser (api-token)');
  });

  it('shows an unreachable server as such, never a stack trace', async () => {
    const url = `http://127.0.0.1:${await closedPort()}`;
    const app = renderApp({ url, token: SUPERUSER_TOKEN });
    const frame = await app.waitFor('Could not connect');
    expect(frame).to.contain('Cannot reach the server');
    expect(frame).to.contain('ECONNREFUSED');
    expect(frame).to.contain(url);
    expect(frame).not.to.match(STACK_LINE);
  });

  it('without a token asks for one, masked, and refuses a URL that is not one before sending anything', async () => {
    const app = renderApp({ url: 'localhost:3000' });
    let frame = await app.waitFor('Connect to a venue server');
    expect(frame).to.contain('VENUE_SUPERUSER_TOKEN');
    await typeInto(app, SUPERUSER_TOKEN, { masked: true });
    await app.press(KEYS.enter);
    frame = await app.waitFor('Not a server URL');
    expect(frame).to.contain('Connect to a venue server');

    await app.press(KEYS.up);
    for (let i = 0; i < 'localhost:3000'.length; i++) await app.press(KEYS.backspace);
    await app.waitFor(/Server URL\s+http:\/\/host:port/);
    await typeInto(app, server.baseUrl);
    await app.press(KEYS.enter, KEYS.enter);
    frame = await app.waitFor('Main menu');
    expect(frame).to.contain(server.baseUrl);
  });

  it('treats q and ? as letters while typing, and as quit and help elsewhere', async () => {
    const app = renderApp({ url: server.baseUrl });
    // The hint line leaves out q and ? while the token field has the keyboard.
    await app.waitFor((frame) => frame.includes('Connect to a venue server') && !frame.includes('q quit'));
    await app.press('q', '?');
    let frame = await app.waitFor('**');
    expect(frame).not.to.contain('Help');
    for (let i = 0; i < 2; i++) await app.press(KEYS.backspace);
    await app.waitFor((current) => !current.includes('*'));
    await typeInto(app, SUPERUSER_TOKEN, { masked: true });
    await app.press(KEYS.enter);
    await app.waitFor('Main menu');

    await app.press('?');
    frame = await app.waitFor('Help: Main menu');
    expect(frame).to.contain('quit (not while typing in a text field)');
    expect(frame).not.to.contain('Seed and maintenance');
    await app.press(KEYS.escape);
    frame = await app.waitFor('Seed and maintenance');
    expect(frame).not.to.contain('Help: Main menu');
  });

  it('Esc on the main menu disconnects, back to the prompt', async () => {
    const app = renderApp({ url: server.baseUrl, token: SUPERUSER_TOKEN });
    await app.waitFor('Main menu');
    await app.press(KEYS.escape);
    const frame = await app.waitFor('Connect to a venue server');
    expect(frame).not.to.contain('Main menu');
  });
});
