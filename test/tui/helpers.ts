import { stripVTControlCharacters } from 'node:util';
import React from 'react';
import { cleanup, render } from 'ink-testing-library';
import type { VenueClient } from '../../sdk/index.ts';
import { App, type AppProps } from '../../tui/App.tsx';
import { startTestServer, SUPERUSER_TOKEN, type TestServer } from '../helpers/server.ts';
import { eventually } from '../helpers/eventually.ts';

/**
 * The hooks of a terminal-app spec: one test server for the suite (handed over with a superuser SDK client for
 * arranging and checking data), closed at the end; every rendered app unmounted after each test.
 */
export function useSuperuserServer(receive: (server: TestServer, sdk: VenueClient) => void): void {
  let server: TestServer | undefined;
  before(async () => {
    server = await startTestServer();
    receive(server, server.client({ superuserToken: SUPERUSER_TOKEN }));
  });
  after(() => server?.close());
  afterEach(() => cleanup());
}

/** What ink reads from a terminal for each key. */
export const KEYS = {
  up: '\u001B[A',
  down: '\u001B[B',
  right: '\u001B[C',
  left: '\u001B[D',
  pageUp: '\u001B[5~',
  pageDown: '\u001B[6~',
  enter: '\r',
  escape: '\u001B',
  space: ' ',
  backspace: '\u007F',
} as const;

/**
 * Polls the last frame (colours stripped) until `predicate` holds; fails with that frame after `timeoutMs`.
 * Waits for what the screen shows instead of sleeping for a guessed time.
 */
export async function waitForFrame(lastFrame: () => string | undefined, predicate: (frame: string) => boolean, timeoutMs = 5000): Promise<string> {
  return eventually(() => stripVTControlCharacters(lastFrame() ?? ''), { until: predicate, timeoutMs, intervalMs: 10, what: 'the frame' });
}

export type Expectation = string | RegExp | ((frame: string) => boolean);

const matches = (frame: string, expected: Expectation) =>
  typeof expected === 'string' ? frame.includes(expected) : expected instanceof RegExp ? expected.test(frame) : expected(frame);

/**
 * The app rendered into ink-testing-library's fake terminal (100 columns, or `columns`), with key and wait
 * helpers. ink reads the width on every frame, and the tables follow the terminal's `resize` event.
 */
export function renderApp(props: AppProps, options: { columns?: number } = {}) {
  const instance = render(React.createElement(App, props));
  if (options.columns) {
    Object.defineProperty(instance.stdout, 'columns', { get: () => options.columns, configurable: true });
    instance.stdout.emit('resize');
  }
  const frame = () => stripVTControlCharacters(instance.lastFrame() ?? '');
  return {
    ...instance,
    frame,
    /** Every frame written from index `from` on, colours stripped. */
    framesSince: (from: number) => instance.frames.slice(from).map((written) => stripVTControlCharacters(written)),
    waitFor: (expected: Expectation, timeoutMs?: number) => waitForFrame(instance.lastFrame, (current) => matches(current, expected), timeoutMs),
    /**
     * Sends keys (or typed text), one write each, and after each waits for the frame it causes (Shopify CLI's
     * `sendInputAndWaitForChange`); a key that changes nothing on screen is given 200 ms. Before each write the
     * event loop turns once more: a screen subscribes to keys in an effect that runs just after its frame is out.
     */
    async press(...inputs: string[]) {
      for (const input of inputs) {
        await new Promise((resolve) => setTimeout(resolve, 10));
        const written = instance.frames.length;
        instance.stdin.write(input);
        await eventually(() => instance.frames.length !== written, { until: (changed) => changed, timeoutMs: 200, intervalMs: 2, orLast: true });
      }
    },
  };
}

export type RenderedApp = ReturnType<typeof renderApp>;

/** Connected with the token and on the main menu. */
export async function connectedApp(
  baseUrl: string,
  token: string,
  props: Omit<AppProps, 'url' | 'token'> = {},
  options: { columns?: number } = {},
): Promise<RenderedApp> {
  const app = renderApp({ url: baseUrl, token, ...props }, options);
  await app.waitFor('Main menu');
  return app;
}

/** The lines of a list's choices: `❯ ` on the cursor's, two spaces on the others. */
const choiceText = (line: string) => (/^(❯ | {2})\S/.test(line) ? line.slice(2) : undefined);

/**
 * Moves the list cursor to the choice whose text starts with `label` (else: contains it), as the frame shows it,
 * and presses Enter: no counting of arrow presses in the specs, so adding an entry to a menu breaks nothing.
 */
export async function choose(app: RenderedApp, label: string) {
  const lines = app.frame().split('\n');
  const cursor = lines.findIndex((line) => line.startsWith('❯'));
  if (cursor < 0) throw new Error(`No list cursor on the screen:\n${app.frame()}`);
  let target = lines.findIndex((line) => choiceText(line)?.startsWith(label));
  if (target < 0) target = lines.findIndex((line) => choiceText(line)?.includes(label));
  if (target < 0) throw new Error(`No choice "${label}" on the screen:\n${app.frame()}`);
  const steps = target - cursor;
  await app.press(...Array<string>(Math.abs(steps)).fill(steps > 0 ? KEYS.down : KEYS.up));
  await app.waitFor((frame) => frame.split('\n').some((line) => line.startsWith('❯') && line.includes(label)));
  await app.press(KEYS.enter);
}

/** From the main menu, the section titled `title` (its screen's title is the same). */
export async function openSection(app: RenderedApp, title: string) {
  await choose(app, title);
  await app.waitFor((frame) => frame.split('\n').some((line) => line.trim() === title));
}

/** Fills the focused text field and waits until the screen shows it (masked fields as asterisks). */
export async function typeInto(app: RenderedApp, text: string, options: { masked?: boolean } = {}) {
  await app.press(text);
  await app.waitFor(options.masked ? '*'.repeat(text.length) : text);
}
