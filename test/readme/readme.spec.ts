import { execFile, execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { DEMO_OFFERS, DEMO_SHOWS } from '../../seed/venue.ts';
import { SUPERUSER_TOKEN, type TestServer } from '../helpers/server.ts';
import { startAssistantServer } from '../modules/assistant/demoVenue.ts';

/**
 * The documentation's request examples stay true (issue 21 §5). The fenced `sh` blocks are read from README.md and
 * every .md file under docs/ (never copied here): every slug and code they name must be the demo venue's, and the guest flow's
 * blocks — the quick start, the public catalog, the booking, the booking flow end to end with payment through the
 * development sandbox — are run with bash, curl and jq against a test server seeded with the demo venue, as a new
 * user would run them against `npm start`. Every curl fails the block on an HTTP error (`--fail-with-body`).
 */
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

interface Block {
  file: string;
  heading: string;
  line: number;
  text: string;
}

function markdownFiles(): string[] {
  const out = ['README.md'];
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true })) {
      const relative = `${dir}/${entry.name}`;
      if (entry.isDirectory()) walk(relative);
      else if (entry.name.endsWith('.md')) out.push(relative);
    }
  };
  walk('docs');
  return out.sort();
}

function shBlocks(file: string, markdown: string): Block[] {
  const blocks: Block[] = [];
  let heading = '';
  let open: Block | undefined;
  markdown.split('\n').forEach((line, index) => {
    if (open) {
      if (line.startsWith('```')) {
        blocks.push(open);
        open = undefined;
      } else open.text += `${line}\n`;
    } else if (/^#{1,4} /.test(line)) heading = line.replace(/^#+ /, '').trim();
    else if (/^```(sh|bash|shell)\s*$/.test(line)) open = { file, heading, line: index + 1, text: '' };
  });
  return blocks;
}

/** The blocks a guest (or a new user at the quick start) runs, by file and section; each must exist and call the API. */
const RUN = [
  { file: 'README.md', heading: 'Quick start' },
  { file: 'docs/flows/catalog.md', heading: 'Public catalog' },
  { file: 'docs/flows/booking.md', heading: 'From a lead to a hold' },
  { file: 'docs/flows/payments.md', heading: 'The booking flow, end to end' },
];

const blocks = markdownFiles().flatMap((file) => shBlocks(file, fs.readFileSync(path.join(ROOT, file), 'utf8')));

describe('README and docs/: request examples', () => {
  it('names only the demo venue’s shows and offers in its shell examples', () => {
    const shows = new Set(DEMO_SHOWS.map((show) => show.slug));
    const offers = new Set(DEMO_OFFERS.map((offer) => offer.code));
    const all = blocks.map((block) => block.text).join('\n');
    const offerCodes = [...all.matchAll(/"offerCode"\s*:\s*"([^"$]+)"/g)].map((m) => m[1]);
    const eventSlugs = [...all.matchAll(/"eventSlug"\s*:\s*"([a-z0-9-]+)"/g)].map((m) => m[1]);
    const showParams = [...all.matchAll(/[?&]show=([a-z0-9-]+)/g)].map((m) => m[1]);
    expect(offerCodes.length + eventSlugs.length + showParams.length).to.be.greaterThan(0);
    for (const code of offerCodes) expect(offers, `offer code ${code}`).to.include(code);
    for (const slug of eventSlugs) expect(shows, `event slug ${slug}`).to.include(slug.replace(/-\d{4}-\d{2}-\d{2}-\d{4}$/, ''));
    for (const slug of showParams) expect(shows, `show ${slug}`).to.include(slug);
  });

  describe('run against a server with the demo venue', () => {
    let server: TestServer;
    let work: string;

    before(async function () {
      for (const tool of ['bash', 'curl', 'jq']) {
        try {
          execFileSync(tool, ['--version'], { stdio: 'ignore' });
        } catch {
          throw new Error(`the documentation's examples need ${tool} on the PATH`);
        }
      }
      this.timeout(120_000);
      // As `npm start` with no VNPay account: the development sandbox, return URLs on the listening port.
      server = await startAssistantServer({ vnpaySandbox: true, publicApiUrlExplicit: false });
      work = fs.mkdtempSync(path.join(os.tmpdir(), 'venue-readme-'));
    });
    after(async () => {
      await server?.close();
      if (work) fs.rmSync(work, { recursive: true, force: true });
    });

    /** Runs a block as a user would paste it, against the test server; every curl fails on an HTTP error. */
    function run(block: Block): Promise<{ stdout: string; calls: string[] }> {
      const base = new URL(server.baseUrl);
      const script = block.text
        .replaceAll('http://localhost:3000', server.baseUrl)
        .replaceAll('localhost:3000', base.host)
        .replaceAll('<printed password>', 'admin-password-1234')
        .replaceAll('<printed token>', SUPERUSER_TOKEN);
      const log = path.join(work, `calls-${block.line}.log`);
      const prelude = `set -eo pipefail\ncurl() { printf '%s\\n' "$*" >> ${JSON.stringify(log)}; command curl --fail-with-body "$@"; }\n`;
      return new Promise((resolve, reject) => {
        execFile('bash', ['-c', prelude + script], { cwd: work, timeout: 60_000, env: { PATH: process.env.PATH, HOME: work } }, (err, stdout, stderr) => {
          if (err) reject(new Error(`${block.file} line ${block.line} (${block.heading}) failed: ${err.message}\n${stdout}\n${stderr}`));
          else resolve({ stdout, calls: fs.existsSync(log) ? fs.readFileSync(log, 'utf8').trim().split('\n') : [] });
        });
      });
    }

    for (const { file, heading } of RUN) {
      it(`runs the examples of ${file} “${heading}”`, async () => {
        const mine = blocks.filter((block) => block.file === file && block.heading === heading && /\bcurl\b/.test(block.text));
        expect(mine, `${file} has no sh block with curl under "${heading}"`).to.not.be.empty;
        for (const block of mine) {
          const { stdout, calls } = await run(block);
          expect(calls.length, `${file} line ${block.line}: no request was made`).to.be.greaterThan(0);
          if (heading === 'Public catalog' || heading === 'Quick start') expect(stdout).to.contain('"items"');
          if (heading === 'From a lead to a hold') expect(stdout).to.contain('"status":"HELD"');
          if (heading === 'The booking flow, end to end') {
            // Paid through the sandbox: the browser's return says so, then the reservation reads CONFIRMED.
            expect(stdout).to.match(/"valid":true,"gatewaySuccess":true,"responseCode":"00","paymentStatus":"SUCCEEDED"/);
            expect(stdout).to.match(/CONFIRMED\s*$/);
            const lead = await server.db.knex('customer_leads').first('id');
            expect(lead, 'the lead was recorded').to.not.equal(undefined);
          }
        }
      });
    }
  });
});
