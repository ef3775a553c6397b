import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import type { HandlerMap } from '../../server/platform/http/handler.ts';
import { handlers as realHandlers } from '../../server/modules/index.ts';
import { asSuperuser, startTestServer, type TestServer } from '../helpers/server.ts';

/**
 * Error bodies never say where the server lives on disk (issue 21 §5): a 400 of the body parser or of validation,
 * and any other problem, carry no absolute path — in development too, and for the privileged callers that get the
 * stack (spec §7): its frames name the project's files relative to the project root.
 */
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

const failing: HandlerMap = {
  ...(realHandlers as unknown as HandlerMap),
  getLiveness: () => {
    throw new Error(`cannot open ${ROOT}/.data/pgdata/PG_VERSION`, { cause: new Error(`ENOENT: no such file or directory, open '${ROOT}/server/missing.ts'`) });
  },
};

function expectNoServerPaths(text: string): void {
  expect(text).to.not.contain(ROOT);
  expect(text).to.not.contain(process.cwd() + '/');
  expect(text).to.not.contain('file://');
  // No frame or message names a file by an absolute path ("(/…/x.ts:1:2)", "at /…", "'/…").
  expect(text).to.not.match(/[("' ]\/[^\s"'()]+\.(ts|js|mjs|cjs|json)\b/);
}

describe('http: no absolute server paths in error bodies (development)', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer({ config: { nodeEnv: 'development' }, handlers: failing });
  });
  after(() => server.close());

  for (const [caller, headers] of [['public', {}], ['superuser', asSuperuser]] as const) {
    it(`400 for a malformed JSON body (${caller})`, async () => {
      const res = await server.request<any>('POST', '/api/public/reservations', { rawBody: '{"eventSlug": ', headers: { 'content-type': 'application/json', ...headers } });
      expect(res.status).to.equal(400);
      expect(res.body.code).to.equal('malformed_body');
      expectNoServerPaths(res.text);
      if (caller === 'superuser') {
        // Still the full details the spec gives privileged callers: a stack, its frames relative to the project.
        expect(res.body.debug.stack).to.match(/\n\s+at /).and.contain('server/platform/http/');
      }
    });

    it(`400 for invalid fields and for a body in a bad encoding (${caller})`, async () => {
      const invalid = await server.request<any>('POST', '/api/public/reservations', { body: { eventSlug: 'Not A Slug' }, headers: { ...headers } });
      expect(invalid.status).to.equal(400);
      expectNoServerPaths(invalid.text);
      const encoded = await server.request<any>('POST', '/api/public/reservations', { rawBody: 'not gzip', headers: { 'content-type': 'application/json', 'content-encoding': 'gzip', ...headers } });
      expect(encoded.status).to.equal(400);
      expectNoServerPaths(encoded.text);
    });
  }

  it('500 for a privileged caller: message, cause and stack without absolute paths, relative to the project', async () => {
    const res = await server.request<any>('GET', '/api/system/health/live', { headers: asSuperuser });
    expect(res.status).to.equal(500);
    expectNoServerPaths(res.text);
    expect(res.body.debug.message).to.equal('cannot open .data/pgdata/PG_VERSION');
    expect(res.body.debug.cause[0].message).to.equal("ENOENT: no such file or directory, open 'server/missing.ts'");
    expect(res.body.debug.stack).to.match(/\n\s+at /).and.contain('test/http/errorPaths.spec.ts:');
  });
});
