import { seed } from '../../../seed/index.ts';
import type { Config } from '../../../server/platform/config.ts';
import { startTestServer, SUPERUSER_TOKEN, type TestServer } from '../../helpers/server.ts';

/**
 * A test server with the demo venue — shows, eight weeks of events, offers, and the published knowledge in
 * English and Vietnamese — seeded through the API, as `npm start` does: what the assistant's specs ask about.
 */
export const SITE = 'https://venue.example';

export async function startAssistantServer(config: Partial<Config> = {}): Promise<TestServer> {
  const server = await startTestServer({ config: { publicSiteUrl: SITE, ...config } });
  await seed({ baseUrl: server.baseUrl, superuserToken: SUPERUSER_TOKEN, passwords: { admin: 'admin-password-1234', marketing: 'marketing-password-1234', staff: 'staff-password-1234' }, catalog: 'always' });
  return server;
}
