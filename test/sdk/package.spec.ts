import { expect } from 'chai';
import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { bookableEvent } from '../modules/booking/factories.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';

const run = promisify(execFile);
const ROOT = path.resolve(import.meta.dirname, '../..');

/**
 * The SDK as a front end gets it (issue 23 §2): `npm run sdk:pack` builds the ESM + `.d.ts` package and packs it; a
 * fresh project installs the tarball, type-checks a program against it (a misspelled problem code must fail to
 * compile) and runs it against a test server.
 */
describe('the SDK as a package a front end installs', function () {
  this.timeout(240_000);
  let server: TestServer;
  let project: string;
  before(async () => {
    server = await startTestServer();
    project = await fs.mkdtemp(path.join(os.tmpdir(), 'venue-sdk-consumer-'));
  });
  after(async () => {
    await server.close();
    await fs.rm(project, { recursive: true, force: true });
  });

  it('packs, installs from the tarball, type-checks a program (typed problem codes) and runs it', async () => {
    await run('npm', ['run', 'sdk:build'], { cwd: ROOT });
    const { stdout } = await run('npm', ['pack', './sdk', '--json', '--pack-destination', project], { cwd: ROOT });
    const [packed] = JSON.parse(stdout) as Array<{ filename: string; files: Array<{ path: string }> }>;
    const files = packed.files.map((f) => f.path);
    expect(files).to.include.members(['package.json', 'README.md', 'dist/index.js', 'dist/index.d.ts', 'dist/problems.js', 'dist/schema.d.ts']);
    expect(files.filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts')), 'no TypeScript sources in the package').to.deep.equal([]);

    await fs.writeFile(path.join(project, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
    await run('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', path.join(project, packed.filename)], { cwd: project });
    const installed = JSON.parse(await fs.readFile(path.join(project, 'node_modules/@venue/sdk/package.json'), 'utf8'));
    expect(installed.name).to.equal('@venue/sdk');

    // Nothing Node-only at the top of the package: a browser bundle can take it.
    const entry = await fs.readFile(path.join(project, 'node_modules/@venue/sdk/dist/index.js'), 'utf8');
    expect(entry).to.not.match(/from ['"](node:|fs|path|http|https|crypto|tough-cookie|fetch-cookie)['"]/);

    await fs.writeFile(
      path.join(project, 'tsconfig.json'),
      JSON.stringify({ compilerOptions: { target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, skipLibCheck: true, lib: ['ES2022', 'DOM'], types: [] }, include: ['main.ts'] }),
    );
    await fs.writeFile(
      path.join(project, 'main.ts'),
      `declare const process: { argv: string[] };
import { createClient, guestReservation, isProblem, unwrap, type ProblemCode } from '@venue/sdk';

const api = createClient({ baseUrl: process.argv[2] });
const events = unwrap(await api.GET('/api/public/show-events', { params: { query: { locale: 'en' } } }));
const first = events.items[0];
const sold = await api.POST('/api/public/reservations', {
  body: { eventSlug: first.slug, offerCode: 'NO-SUCH-OFFER', guestCount: 2, contact: { name: 'Pack Test', email: 'pack@example.com' } },
});
let refused: ProblemCode | undefined;
if (isProblem(sold.error, 'offer_unavailable', 'sold_out', 'validation_failed')) refused = sold.error.code;
// @ts-expect-error a misspelled problem code does not compile
isProblem(sold.error, 'sold_outt');
const booking = guestReservation(api, { reference: 'VN-0000-0000', token: 'x' });
const mine = await booking.get();
console.log(JSON.stringify({ events: events.items.length, slug: first.slug, refused, status: sold.response.status, guest: mine.response.status }));
`,
    );
    // The root's TypeScript compiler, on the consumer's own configuration.
    await run(process.execPath, [path.join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', project], { cwd: project }).catch((err: { stdout?: string }) => {
      throw new Error(`the consumer's program does not type-check against the package:\n${err.stdout}`);
    });
    const { event } = await bookableEvent();
    const out = await run(process.execPath, [path.join(project, 'main.js'), server.baseUrl], { cwd: project });
    const result = JSON.parse(out.stdout);
    expect(result.events).to.be.greaterThan(0);
    expect(result.slug).to.equal(event.slug);
    expect(result.status).to.be.within(400, 499);
    expect(result.refused, JSON.stringify(result)).to.be.a('string');
    expect(result.guest).to.be.within(400, 499);
  });
});
