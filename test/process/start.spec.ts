import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';

/** `npm start` as a new user runs it: no variables but the data directory and an ephemeral port. */
function startServer(dataDir: string): ChildProcess {
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info' };
  for (const name of ['DATABASE_URL', 'SUPERUSER_API_TOKENS', 'SUPERUSER_API_TOKEN', 'NODE_ENV']) delete env[name];
  return spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
}

/**
 * `npm start` as a new user runs it: no variables, an empty DATA_DIR. It must migrate, seed, print how to sign
 * in, serve, and stop cleanly on SIGTERM.
 */
describe('npm start on a fresh data directory', function () {
  this.timeout(60_000);
  let child: ChildProcess | undefined;
  let output = '';
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'venue-start-'));

  after(() => {
    child?.kill('SIGKILL');
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('serves the embedded database, seeded, and exits 0 on SIGTERM', async () => {
    child = startServer(dataDir);
    child.stdout!.on('data', (chunk) => (output += chunk));
    child.stderr!.on('data', (chunk) => (output += chunk));

    const baseUrl = await new Promise<string>((resolve, reject) => {
      const timer = setInterval(() => {
        const match = /Venue backend listening on (http:\/\/\S+)/.exec(output);
        if (match) {
          clearInterval(timer);
          resolve(match[1]);
        }
      }, 100);
      child!.on('exit', (code) => reject(new Error(`exited ${code} before listening:\n${output}`)));
    });

    expect(output).to.match(/Generated passwords \(shown this once/);
    const password = /^\s+admin\s+(\S+)$/m.exec(output)?.[1];
    const token = /Superuser token for the terminal app \(development only\): (\S+)/.exec(output)?.[1];
    expect(password, output).to.be.a('string');

    const signIn = await fetch(`${baseUrl}/api/auth/sign-in`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ identifier: 'admin', password }),
    });
    expect(signIn.status).to.equal(200);
    expect((await signIn.json()).role).to.equal('admin');

    const users = await fetch(`${baseUrl}/api/sudo/users`, { headers: { 'x-api-token': token! } });
    expect(users.status).to.equal(200);
    expect((await users.json()).items.map((u: { email: string }) => u.email).sort()).to.deep.equal([
      'admin@venue.local',
      'marketing@venue.local',
      'staff@venue.local',
    ]);

    const credentials = fs.statSync(path.join(dataDir, 'dev-credentials.json'));
    expect(credentials.mode & 0o777).to.equal(0o600);

    const exitCode = await new Promise<number | null>((resolve) => {
      child!.on('exit', resolve);
      child!.kill('SIGTERM');
    });
    expect(exitCode).to.equal(0);
    expect(output).to.contain('"msg":"stopped"');
    // Log lines wait in a buffer; shutting down writes them all, the access lines of the requests above too.
    expect(output).to.match(/"method":"POST","path":"\/api\/auth\/sign-in","status":200,"ms":[\d.]+,"role":"public","msg":"request"/);
    expect(output).to.match(/"method":"GET","path":"\/api\/sudo\/users","status":200,"ms":[\d.]+,"role":"superuser","msg":"request"/);
    child = undefined;
  });

  it('stops cleanly on SIGTERM while it is still seeding, and writes out every log line', async () => {
    const fresh = fs.mkdtempSync(path.join(os.tmpdir(), 'venue-start-'));
    let out = '';
    child = startServer(fresh);
    child.stdout!.on('data', (chunk) => {
      out += chunk;
      // Seeding starts right after this line (hashing three passwords takes a while): stop now.
      if (out.includes('"msg":"listening"')) child?.kill('SIGTERM');
    });
    child.stderr!.on('data', (chunk) => (out += chunk));
    try {
      const exitCode = await new Promise<number | null>((resolve) => child!.on('exit', resolve));
      expect(exitCode, out).to.equal(0);
      expect(out).to.contain('"signal":"SIGTERM"');
      expect(out).to.contain('"msg":"stopped"');
      expect(out).not.to.match(/Error|Cannot start/);
      // The seeder's keep-alive connection is closed once its request is answered, not after the 10 s limit.
      expect(out).not.to.contain('did not finish');
    } finally {
      child = undefined;
      fs.rmSync(fresh, { recursive: true, force: true });
    }
  });
});