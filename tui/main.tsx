import { render } from 'ink';
import { App } from './App.tsx';

// VENUE_URL and VENUE_SUPERUSER_TOKEN (see tui/README.md); an empty variable counts as unset.
const app = render(<App url={process.env.VENUE_URL || undefined} token={process.env.VENUE_SUPERUSER_TOKEN || undefined} />);
await app.waitUntilExit();
