import { render } from 'ink';
import { App } from './App.tsx';

// VENUE_URL, VENUE_SUPERUSER_TOKEN and VENUE_DOWNLOAD_DIR (see tui/README.md); an empty variable counts as unset.
const app = render(<App url={process.env.VENUE_URL || undefined} token={process.env.VENUE_SUPERUSER_TOKEN || undefined} downloadDir={process.env.VENUE_DOWNLOAD_DIR || undefined} />);
await app.waitUntilExit();
