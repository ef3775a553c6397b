import { spawnSync } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { expect } from 'chai';
import { createApp } from '../../server/app.ts';
import { loadConfig } from '../../server/platform/config.ts';
import { accessLine, type AccessEntry } from '../../server/platform/http/requestContext.ts';
import { createLogger, LineBuffer } from '../../server/platform/logger.ts';
import { testDatabase } from '../helpers/database.ts';

/** A destination that keeps every write as it came (one string per write). */
function capture() {
  const writes: string[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      writes.push(String(chunk));
      done();
    },
  });
  const lines = () => writes.join('').split('\n').filter(Boolean);
  return { stream, writes, lines };
}

/** A stand-in for sonic-boom behind a LineBuffer: records what it is handed and when it is flushed. */
function target() {
  const calls: string[] = [];
  return {
    calls,
    write: (chunk: string) => void calls.push(`write:${chunk}`),
    flush: (cb?: () => void) => {
      calls.push('flush');
      cb?.();
    },
    flushSync: () => void calls.push('flushSync'),
    end: () => void calls.push('end'),
  };
}

describe('logging', () => {
  describe('the access line', () => {
    const entry: AccessEntry = { requestId: 'req-1', method: 'GET', path: '/api/system/health/live', status: 200, ms: 1.25, role: 'public' };

    it('is the line pino prints for the same entry: same keys, same order, same values', () => {
      const sink = capture();
      createLogger('info', sink.stream).info(entry, 'request');
      const fromPino = JSON.parse(sink.lines()[0]);
      const ours = accessLine(entry, fromPino.time);
      expect(ours.endsWith('\n')).to.equal(true);
      expect(Object.entries(JSON.parse(ours))).to.deep.equal(Object.entries(fromPino));
    });

    it('escapes what a path can carry: quotes, backslashes, control characters, non-ASCII', () => {
      for (const path of ['/a"b', '/a\\b', '/a\u0001b\tc', '/é/日本', '/%22/~x', '/a b']) {
        const line = accessLine({ ...entry, path, method: 'M-SEARCH' });
        expect(line.split('\n').length, path).to.equal(2); // exactly one line
        expect(JSON.parse(line), path).to.include({ path, method: 'M-SEARCH' });
      }
    });
  });

  describe('the app', () => {
    async function serve(level: string) {
      const sink = capture();
      const app = createApp({ config: loadConfig({ NODE_ENV: 'test' }), db: await testDatabase(), logger: createLogger(level, sink.stream) });
      const server = http.createServer(app.koa.callback());
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const close = async () => {
        await new Promise((resolve) => server.close(resolve));
        await app.close();
      };
      return { sink, base, close };
    }

    it('writes one access line per request at info, with the request id it returned', async () => {
      const { sink, base, close } = await serve('info');
      try {
        const res = await fetch(`${base}/api/system/health/live?secret=x`);
        const unknown = await fetch(`${base}/api/nothing-here`, { headers: { 'x-request-id': 'caller-id-7' } });
        await unknown.text();
        const lines = sink.lines().map((line) => JSON.parse(line)).filter((line) => line.msg === 'request');
        expect(lines).to.have.length(2);
        expect(lines[0]).to.include({ level: 'info', requestId: res.headers.get('x-request-id'), method: 'GET', path: '/api/system/health/live', status: 200, role: 'public' });
        expect(lines[0].ms).to.be.a('number');
        expect(lines[1]).to.include({ requestId: 'caller-id-7', path: '/api/nothing-here', status: 404 });
        expect(sink.writes.join('')).not.to.contain('secret=x');
      } finally {
        await close();
      }
    });

    it('writes none when the level is above info', async () => {
      const { sink, base, close } = await serve('warn');
      try {
        expect((await fetch(`${base}/api/system/health/live`)).status).to.equal(200);
        expect(sink.writes).to.deep.equal([]);
      } finally {
        await close();
      }
    });
  });

  describe('LineBuffer', () => {
    it('hands lines on in order as one write once minLength characters wait', () => {
      const sink = target();
      const buffer = new LineBuffer(sink, 10, 60_000);
      buffer.write('aaaa\n');
      expect(sink.calls).to.deep.equal([]);
      buffer.write('bbbb\n');
      expect(sink.calls).to.deep.equal(['write:aaaa\nbbbb\n']);
      buffer.write('cc\n');
      buffer.end();
      expect(sink.calls).to.deep.equal(['write:aaaa\nbbbb\n', 'write:cc\n', 'end']);
    });

    it('hands a lone line on after maxDelayMs', async () => {
      const sink = target();
      const buffer = new LineBuffer(sink, 4096, 20);
      buffer.write('one\n');
      expect(sink.calls).to.deep.equal([]);
      // Waits for the hand-over itself (bounded), not a guessed time.
      const started = Date.now();
      while (sink.calls.length === 0 && Date.now() - started < 2000) await new Promise((resolve) => setImmediate(resolve));
      expect(sink.calls).to.deep.equal(['write:one\n']);
      expect(Date.now() - started).to.be.at.least(10);
      buffer.end();
    });

    it('hands waiting lines on before flush and flushSync', () => {
      const sink = target();
      const buffer = new LineBuffer(sink, 4096, 60_000);
      buffer.write('x\n');
      buffer.flushSync();
      buffer.write('y\n');
      let flushed = false;
      buffer.flush(() => (flushed = true));
      expect(sink.calls).to.deep.equal(['write:x\n', 'flushSync', 'write:y\n', 'flush']);
      expect(flushed).to.equal(true);
      buffer.end();
    });

    it('loses no line when the process exits at once, through process.exit or by running out of work', () => {
      const program = (exit: string) => `
        const { createLogger } = await import('./server/platform/logger.ts');
        const logger = createLogger('info');
        for (let i = 0; i < 3; i++) logger.info({ i }, 'line');
        ${exit}`;
      for (const exit of ['process.exit(3)', '']) {
        const child = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', program(exit)], { encoding: 'utf8', timeout: 30_000 });
        const lines = child.stdout.split('\n').filter(Boolean).map((line) => JSON.parse(line));
        expect(lines.map((line) => line.i), `${exit || 'natural exit'}: ${child.stderr}`).to.deep.equal([0, 1, 2]);
        expect(child.status).to.equal(exit ? 3 : 0);
      }
    });
  });
});
