import { useEffect, useRef, useState } from 'react';
import { Box, Text } from 'ink';
import { connect, type Connection } from '../api/client.ts';
import { toFailure, type Failure } from '../api/failure.ts';
import { Busy } from '../ui/Busy.tsx';
import { Field } from '../ui/Field.tsx';
import { Form } from '../ui/Form.tsx';
import { ProblemView } from '../ui/ProblemView.tsx';
import { Screen } from '../ui/Screen.tsx';
import { useKeys } from '../ui/shell.ts';

export interface Credentials {
  url: string;
  token: string;
}

type Phase = 'prompt' | 'connecting' | 'failed';

/**
 * Prompt → connecting → connected, or an error screen (Enter retries, Esc returns to the prompt). With a token
 * from the environment the prompt is skipped.
 */
export function ConnectFlow(props: { initial: Credentials; autoConnect: boolean; onConnected(connection: Connection, credentials: Credentials): void; onQuit(): void }) {
  // The latest callback, without restarting a connection attempt each time the parent renders.
  const onConnected = useRef(props.onConnected);
  onConnected.current = props.onConnected;
  const [credentials, setCredentials] = useState(props.initial);
  const [phase, setPhase] = useState<Phase>(props.autoConnect ? 'connecting' : 'prompt');
  const [failure, setFailure] = useState<Failure>();

  useEffect(() => {
    if (phase !== 'connecting') return;
    let wanted = true;
    connect(credentials.url, credentials.token).then(
      (connection) => wanted && onConnected.current(connection, credentials),
      (error: unknown) => {
        if (!wanted) return;
        const found = toFailure(error);
        setFailure(found);
        // A malformed URL or a missing token is the prompt's to show, beside its field.
        setPhase(found.status === undefined && found.errors.length > 0 ? 'prompt' : 'failed');
      },
    );
    return () => {
      wanted = false;
    };
  }, [phase, credentials]);

  if (phase === 'connecting') {
    return (
      <Screen title="Connecting" hints={[]} onBack={() => setPhase('prompt')} backLabel="cancel">
        <Busy label={`Connecting to ${credentials.url}…`} />
      </Screen>
    );
  }
  if (phase === 'failed' && failure) {
    const backToPrompt = () => {
      setFailure(undefined);
      setPhase('prompt');
    };
    return <ConnectError failure={failure} url={credentials.url} onRetry={() => setPhase('connecting')} onBack={backToPrompt} />;
  }
  return (
    <Screen title="Connect to a venue server" hints={[['↑/↓', 'field'], ['enter', 'next / connect']]} onBack={props.onQuit} backLabel="quit">
      <Text dimColor>Set VENUE_URL and VENUE_SUPERUSER_TOKEN to skip this prompt.</Text>
      <Box marginTop={1}>
        <Form
          fields={[
            { name: 'url', label: 'Server URL', placeholder: 'http://host:port', validate: (value) => (value.trim() ? undefined : 'required') },
            { name: 'token', label: 'Superuser token', kind: 'password', validate: (value) => (value.trim() ? undefined : 'required') },
          ]}
          initialValues={{ url: credentials.url, token: credentials.token }}
          initialFocus={credentials.url ? 1 : 0}
          failure={failure}
          onSubmit={(values) => {
            setFailure(undefined);
            setCredentials({ url: values.url, token: values.token });
            setPhase('connecting');
          }}
        />
      </Box>
    </Screen>
  );
}

function ConnectError({ failure, url, onRetry, onBack }: { failure: Failure; url: string; onRetry(): void; onBack(): void }) {
  useKeys((_input, key) => {
    if (key.return) onRetry();
  });
  return (
    <Screen title="Could not connect" hints={[['enter', 'retry']]} onBack={onBack} backLabel="back to the connect prompt">
      <ProblemView failure={failure} />
      <Box flexDirection="column" marginTop={1}>
        <Field label="Server">{url}</Field>
        {failure.status === 401 && <Text>The token was not accepted: check VENUE_SUPERUSER_TOKEN, or go back and type another.</Text>}
        {failure.code === 'unreachable' && <Text>Nothing answered at that address: check VENUE_URL and that the server is running.</Text>}
      </Box>
    </Screen>
  );
}
