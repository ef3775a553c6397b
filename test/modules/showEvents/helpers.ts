import { buildMemberSession } from '../../helpers/factories.ts';
import type { Config } from '../../../server/platform/config.ts';
import { cookieHeader, startTestServer, type TestServer } from '../../helpers/server.ts';

/** The show-event specs' harness: a server and session headers (rows come from the modules' factories). */

/** Cookie headers for a staff (member), an admin and an owner (superuser) session. */
export async function roleHeaders() {
  return {
    staff: cookieHeader((await buildMemberSession('member')).token),
    admin: cookieHeader((await buildMemberSession('admin')).token),
    owner: cookieHeader((await buildMemberSession('owner')).token),
  };
}

export const inDays = (days: number) => new Date(Date.now() + days * 86_400_000);

/**
 * A spec's server (over `config`), started before its tests and closed after them, with staff, admin and owner
 * session headers; `clean` empties the events and shows before each test.
 */
export function specServer(config: Partial<Config> = {}, options: { clean?: boolean } = {}) {
  const spec = {} as { server: TestServer; as: Awaited<ReturnType<typeof roleHeaders>> };
  before(async () => {
    spec.server = await startTestServer({ config });
    spec.as = await roleHeaders();
  });
  after(() => spec.server.close());
  if (options.clean) {
    beforeEach(async () => {
      await spec.server.db.knex('show_events').delete();
      await spec.server.db.knex('shows').delete();
    });
  }
  return spec;
}
