import { buildApiKey, buildMemberSession, permissionMap } from '../../helpers/factories.ts';
import { asSuperuser, cookieHeader, startTestServer, type TestServer } from '../../helpers/server.ts';

/** Callers and the spec harness of the catalog specs (shows, offers, fulfillment, tables, commercial setup); rows come from the modules' factories. */

export const MISSING_ID = '00000000-0000-4000-8000-000000000000';

/** A member (staff), an admin session and the superuser token, as request headers. */
export async function catalogCallers() {
  const staff = await buildMemberSession('member');
  const admin = await buildMemberSession('admin');
  return { anonymous: {}, staff: cookieHeader(staff.token), admin: cookieHeader(admin.token), superuser: asSuperuser };
}

export type CatalogCallers = Awaited<ReturnType<typeof catalogCallers>>;

/** Requests as one caller: `as(headers).get('/api/shows')`. */
export function requestsAs(server: TestServer, headers: Record<string, string>) {
  return {
    get: (path: string) => server.request('GET', path, { headers }),
    post: (path: string, body?: unknown) => server.request('POST', path, { headers, body }),
    put: (path: string, body: unknown) => server.request('PUT', path, { headers, body }),
    patch: (path: string, body: unknown) => server.request('PATCH', path, { headers, body }),
    delete: (path: string) => server.request('DELETE', path, { headers }),
  };
}

/**
 * A spec's server and callers, started in `before` and closed in `after` of the enclosing describe; read them
 * inside tests (`spec.server`, `spec.callers`, `spec.as(spec.callers.admin)`).
 */
export function catalogSpec(options: Parameters<typeof startTestServer>[0] = {}) {
  const spec = {
    server: undefined as unknown as TestServer,
    callers: undefined as unknown as CatalogCallers,
    as: (headers: Record<string, string>) => requestsAs(spec.server, headers),
  };
  before(async () => {
    spec.server = await startTestServer(options);
    spec.callers = await catalogCallers();
  });
  after(() => spec.server.close());
  return spec;
}

/** Headers of an API key holding exactly these permissions. */
export async function apiKeyWith(...permissions: string[]) {
  const { key } = await buildApiKey({ permissions: permissionMap(...permissions) });
  return { 'x-api-key': key };
}
