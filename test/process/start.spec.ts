import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { eventually } from '../helpers/eventually.ts';

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

    expect(output).to.match(/Accounts created now \(passwords recorded in .*dev-credentials\.json\)/);
    expect(output).to.match(/generated passwords are shown this once/);
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

    // The demo venue, seeded into the new database, and said so with a way to see it.
    const shows = await fetch(`${baseUrl}/api/public/shows`);
    expect((await shows.json()).items.map((show: { slug: string }) => show.slug)).to.deep.equal(['saigon-chronicles', 'lotus-tales', 'jazz-after-dark']);
    expect(output).to.match(/^shows\s+3\s+0\s+0$/m);
    expect(output).to.contain(`curl '${baseUrl}/api/public/show-events?locale=vi'`);

    const credentials = fs.statSync(path.join(dataDir, 'dev-credentials.json'));
    expect(credentials.mode & 0o777).to.equal(0o600);
    // The file names the passwords the accounts were created with.
    expect(JSON.parse(fs.readFileSync(path.join(dataDir, 'dev-credentials.json'), 'utf8')).passwords.admin).to.equal(password);

    const exitCode = await new Promise<number | null>((resolve) => {
      child!.on('exit', resolve);
      child!.kill('SIGTERM');
    });
    expect(exitCode).to.equal(0);
    expect(output).to.contain('"msg":"stopped"');
    // A fresh start logs nothing that looks like trouble: no 4xx/5xx access line (the seeder probes nothing
    // that is not there), no warning or error.
    const lines = output.split('\n').filter((line) => line.startsWith('{')).map((line) => JSON.parse(line));
    expect(lines.filter((line) => line.msg === 'request').length, output).to.be.greaterThan(3);
    expect(lines.filter((line) => line.status >= 400), output).to.deep.equal([]);
    const LOUD = new Set(['warn', 'error', 'fatal', 40, 50, 60]);
    expect(lines.filter((line) => LOUD.has(line.level)), output).to.deep.equal([]);
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
/** Whether a process is still there (a zombie counts as gone: it no longer runs). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    return !/^\S+ \(.*\) Z/.test(fs.readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return true; // no /proc (not Linux): kill(0) is all we know
  }
}

/** The pids of a process's children, grandchildren, …, from `ps`. */
function descendants(root: number): number[] {
  const rows = execFileSync('ps', ['-eo', 'pid=,ppid='], { encoding: 'utf8' })
    .trim()
    .split('\n')
    .map((line) => line.trim().split(/\s+/).map(Number));
  const out: number[] = [];
  const queue = [root];
  while (queue.length) {
    const parent = queue.shift()!;
    for (const [pid, ppid] of rows) if (ppid === parent) (out.push(pid), queue.push(pid));
  }
  return out;
}

async function answers(url: string): Promise<boolean> {
  try {
    await fetch(url, { signal: AbortSignal.timeout(2000) });
    return true;
  } catch {
    return false;
  }
}

async function until(condition: () => boolean | Promise<boolean>, what: string, output?: () => string, timeoutMs = 15_000): Promise<void> {
  await eventually(condition, { until: (done) => done, timeoutMs, what: () => `${what}${output ? `:\n${output()}` : ''}` });
}

/**
 * `npm start` exactly as a user runs it: npm, the shell npm runs the script line with, then node. SIGTERM to npm
 * (what a process manager or `kill <pid of npm>` sends) must stop the server, not orphan it.
 */
describe('npm start: SIGTERM to npm stops the server', function () {
  this.timeout(120_000);
  let npm: ChildProcess | undefined;
  let tree: number[] = [];
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'venue-npm-start-'));

  after(() => {
    // The tree as it is now too: a test failing before it read the tree must not leave the server running.
    if (npm?.pid && npm.exitCode === null) tree = [...new Set([...tree, ...descendants(npm.pid)])];
    npm?.kill('SIGKILL');
    for (const pid of tree) if (alive(pid)) process.kill(pid, 'SIGKILL');
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('forwards the signal to node: the port stops answering and no process is left', async () => {
    const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info', SEED_ON_START: 'false' };
    for (const name of ['DATABASE_URL', 'SUPERUSER_API_TOKENS', 'SUPERUSER_API_TOKEN', 'NODE_ENV']) delete env[name];
    // A user's shell has no npm_* variables; those of an enclosing `npm test`/`npx` change what npm does.
    for (const name of Object.keys(env)) if (/^npm_/i.test(name)) delete env[name];
    // Under `npm test` (or npx) npm names its entry point (npm-cli.js, or npx-cli.js beside it); else `npm` on the PATH.
    const npmCli = process.env.npm_execpath && path.join(path.dirname(process.env.npm_execpath), 'npm-cli.js');
    npm = npmCli && fs.existsSync(npmCli)
      ? spawn(process.execPath, [npmCli, 'start', '--silent'], { env, stdio: ['ignore', 'pipe', 'pipe'] })
      : spawn('npm', ['start', '--silent'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    npm.stdout!.on('data', (chunk) => (output += chunk));
    npm.stderr!.on('data', (chunk) => (output += chunk));
    const exited = new Promise<number | null>((resolve) => npm!.on('exit', (code) => resolve(code)));

    let baseUrl = '';
    await until(() => {
      baseUrl = /Venue backend listening on (http:\/\/\S+)/.exec(output)?.[1] ?? '';
      if (npm!.exitCode !== null) throw new Error(`npm exited ${npm!.exitCode} before listening:\n${output}`);
      return Boolean(baseUrl);
      // A cold start (npm, tsx compiling the server, migrations) takes seconds; on a shared machine, many.
    }, 'the server to listen', () => output, 60_000);
    expect(await answers(`${baseUrl}/api/system/health/live`)).to.equal(true);
    // Every process npm started (the shell, if any, node, esbuild's service): all must be gone afterwards.
    tree = descendants(npm.pid!);
    expect(tree, 'node runs under npm').not.to.be.empty;

    npm.kill('SIGTERM');
    const code = await exited;
    await until(async () => !(await answers(`${baseUrl}/api/system/health/live`)), 'the port to stop answering');
    await until(() => tree.every((pid) => !alive(pid)), `the processes ${tree.join(', ')} to end`, () => output);
    expect(output).to.contain('"msg":"stopped"');
    expect(code, output).to.equal(0);
    npm = undefined;
  });
});
