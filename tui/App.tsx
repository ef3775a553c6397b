import { Component, useCallback, useMemo, useRef, useState, type ReactElement, type ReactNode } from 'react';
import { Box, Text, useApp, useInput } from 'ink';
import { DEFAULT_URL, type Connection } from './api/client.ts';
import { ConnectFlow, type Credentials } from './screens/Connect.tsx';
import { MainMenu } from './screens/MainMenu.tsx';
import { HelpOverlay } from './ui/HelpOverlay.tsx';
import { ConnectionContext, NavigationContext, ScreenContext, ShellContext, type HelpTopic, type Navigation, type Shell } from './ui/shell.ts';

export interface AppProps {
  /** Server URL (VENUE_URL); http://localhost:3000 when not given. */
  url?: string;
  /** Superuser token (VENUE_SUPERUSER_TOKEN); when given the app connects at once, otherwise it asks. */
  token?: string;
  /** Accounts per page. */
  pageSize?: number;
  /** Where downloaded files go (VENUE_DOWNLOAD_DIR); the working directory when not given. */
  downloadDir?: string;
}

/**
 * The superuser terminal app: a connect prompt, then a stack of screens over one connection. `q` quits and `?`
 * shows help from anywhere except while a text field has the keyboard.
 */
export function App({ url = DEFAULT_URL, token = '', pageSize = 10, downloadDir = process.cwd() }: AppProps) {
  const { exit } = useApp();
  const [connection, setConnection] = useState<Connection | null>(null);
  const [credentials, setCredentials] = useState<Credentials>({ url, token });
  const [autoConnect, setAutoConnect] = useState(Boolean(token));
  const [helpOpen, setHelpOpen] = useState(false);
  const [topic, setTopic] = useState<HelpTopic>();
  const [typingFields, setTypingFields] = useState(0);
  const [notice, setNotice] = useState<string>();
  const typing = typingFields > 0;

  useInput((input, key) => {
    if (helpOpen) {
      if (key.escape || input === '?') setHelpOpen(false);
      else if (input === 'q') exit();
      return;
    }
    if (typing) return;
    if (input === 'q') exit();
    else if (input === '?') setHelpOpen(true);
  });

  const setTyping = useCallback((on: boolean) => setTypingFields((count) => Math.max(0, count + (on ? 1 : -1))), []);
  const shell: Shell = { setTyping, typing, showHelpFor: setTopic, notice, pageSize, downloadDir };

  const disconnect = useCallback(() => {
    setConnection(null);
    setNotice(undefined);
    setAutoConnect(false);
  }, []);

  return (
    <ShellContext.Provider value={shell}>
      <ErrorBoundary>
        <Box flexDirection="column">
          {connection ? (
            <Navigator connection={connection} helpOpen={helpOpen} setNotice={setNotice} onDisconnect={disconnect} />
          ) : (
            <ScreenContext.Provider value={{ active: !helpOpen, onTop: true }}>
              <Box display={helpOpen ? 'none' : 'flex'} flexDirection="column">
                <ConnectFlow
                  initial={credentials}
                  autoConnect={autoConnect}
                  onConnected={(made, used) => {
                    setCredentials(used);
                    setConnection(made);
                  }}
                  onQuit={exit}
                />
              </Box>
            </ScreenContext.Provider>
          )}
          {helpOpen && <HelpOverlay topic={topic} />}
        </Box>
      </ErrorBoundary>
    </ShellContext.Provider>
  );
}

interface StackEntry {
  id: number;
  screen: ReactElement;
}

/**
 * The screens over one connection. Screens under the top one stay mounted (hidden, without keys), so going back
 * finds a list on the same page and search, and `useOnReturn` refreshes it.
 */
function Navigator(props: { connection: Connection; helpOpen: boolean; setNotice(message?: string): void; onDisconnect(): void }) {
  const { connection, helpOpen, setNotice, onDisconnect } = props;
  const [stack, setStack] = useState<StackEntry[]>(() => [{ id: 0, screen: <MainMenu /> }]);
  const nextId = useRef(1);
  const navigation = useMemo<Navigation>(
    () => ({
      push(screen) {
        const id = nextId.current++;
        setNotice(undefined);
        setStack((entries) => [...entries, { id, screen }]);
      },
      replace(screen) {
        const id = nextId.current++;
        setNotice(undefined);
        setStack((entries) => [...entries.slice(0, -1), { id, screen }]);
      },
      back(steps = 1) {
        setNotice(undefined);
        setStack((entries) => entries.slice(0, Math.max(1, entries.length - steps)));
      },
      notify: (message) => setNotice(message),
      disconnect: onDisconnect,
    }),
    [setNotice, onDisconnect],
  );
  const { principal } = connection;
  return (
    <ConnectionContext.Provider value={connection}>
      <NavigationContext.Provider value={navigation}>
        <Box flexDirection="column" display={helpOpen ? 'none' : 'flex'}>
          <Text wrap="truncate-end">
            <Text bold>Venue terminal</Text>
            <Text dimColor> · </Text>
            {connection.baseUrl}
            <Text dimColor> · </Text>
            <Text color="green">
              {principal.role} ({principal.authSource})
            </Text>
            {principal.account && <Text> · {principal.account.email}</Text>}
          </Text>
          {stack.map((entry, index) => {
            const onTop = index === stack.length - 1;
            return (
              <ScreenContext.Provider key={entry.id} value={{ active: onTop && !helpOpen, onTop }}>
                <Box display={onTop ? 'flex' : 'none'} flexDirection="column" marginTop={1}>
                  {entry.screen}
                </Box>
              </ScreenContext.Provider>
            );
          })}
        </Box>
      </NavigationContext.Provider>
    </ConnectionContext.Provider>
  );
}

/** A rendering bug is a message on screen, not a stack trace; `q` still quits (App's keys sit above this). */
class ErrorBoundary extends Component<{ children: ReactNode }, { message?: string }> {
  override state: { message?: string } = {};

  static getDerivedStateFromError(error: unknown) {
    return { message: error instanceof Error ? error.message : String(error) };
  }

  override render() {
    if (this.state.message === undefined) return this.props.children;
    return (
      <Box flexDirection="column" borderStyle="round" borderColor="red" paddingX={1}>
        <Text color="red" bold>
          ✖ The terminal app hit a bug
        </Text>
        <Text>{this.state.message}</Text>
        <Text dimColor>
          <Text bold>q</Text> quit
        </Text>
      </Box>
    );
  }
}
