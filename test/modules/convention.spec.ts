import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { expect } from 'chai';
import { checkModules, MODULES } from '../../server/modules/index.ts';
import { contract } from '../helpers/contract.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const tags = [...new Set(contract.operations.map((op) => op.tags[0]))].sort();

function specFiles(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    return entry.isDirectory() ? specFiles(full) : entry.name.endsWith('.spec.ts') ? [full] : [];
  });
}

/** `/api/sudo/users/{userId}` as the tests write it: the template itself (SDK), or with values filled in. */
function pathPattern(template: string): RegExp {
  const escaped = template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\\?\{[^}]+\\?\}/g, '(\\{[^}]+\\}|\\$\\{[^}]+\\}|[^/\'"`?]+)');
  return new RegExp(`['"\`]${escaped}(['"\`?]|$)`, 'm');
}

describe('module convention: tag = folder (DESIGN.md "Layout")', () => {
  it('handles every operation in server/modules/<tag>/handlers.ts, exported as `handlers`', async () => {
    const misplaced: string[] = [];
    for (const op of contract.operations) {
      if (op.access === 'disabled') continue;
      const file = path.join(ROOT, 'server/modules', op.tags[0], 'handlers.ts');
      if (!fs.existsSync(file)) {
        misplaced.push(`${op.operationId}: no ${path.relative(ROOT, file)}`);
        continue;
      }
      const module = (await import(pathToFileURL(file).href)) as { handlers?: Record<string, unknown> };
      if (typeof module.handlers?.[op.operationId] !== 'function') misplaced.push(`${op.operationId}: not in ${path.relative(ROOT, file)}`);
    }
    expect(misplaced).to.deep.equal([]);
  });

  it('registers each tag once, and no module handles an operation of another tag', () => {
    expect(Object.keys(MODULES).sort()).to.deep.equal(tags);
    expect(checkModules(contract.operations)).to.deep.equal([]);
  });

  it('would refuse a handler living in another tag’s module, or a tag without a module', () => {
    const moved = {
      ...MODULES,
      system: { handlers: { ...MODULES.system.handlers, signIn: MODULES.auth.handlers.signIn } },
    } as typeof MODULES;
    expect(checkModules(contract.operations, moved)).to.deep.equal(['signIn is tagged auth but handled in server/modules/system/handlers.ts']);
    const { maintenance: _gone, ...rest } = MODULES;
    expect(checkModules(contract.operations, rest)).to.include('runMigrations is tagged maintenance, but there is no module server/modules/maintenance/');
  });

  it('tests every operation under test/modules/<tag>/', () => {
    const untested: string[] = [];
    for (const tag of tags) {
      const sources = specFiles(path.join(ROOT, 'test/modules', tag)).map((file) => fs.readFileSync(file, 'utf8'));
      for (const op of contract.operations.filter((o) => o.tags[0] === tag && o.access !== 'disabled')) {
        const pattern = pathPattern(op.path);
        if (!sources.some((source) => pattern.test(source))) untested.push(`${op.operationId} (${op.method} ${op.path}) in test/modules/${tag}/`);
      }
    }
    expect(untested).to.deep.equal([]);
  });

  it('writes each write operation in a command named after it: server/modules/<tag>/commands/<operationId>.ts', () => {
    // POSTs that write nothing but a rate-limit counter: a chat turn streams an answer, a balance check keeps the
    // voucher code out of URLs and logs, a quote prices the hold's body (its codes too) and rolls back. They read,
    // so they have no command.
    const reads = new Set(['chatWithAssistant', 'askAssistantDemo', 'streamLegacyCustomerSupport', 'checkVoucherBalance', 'quoteReservation']);
    const missing: string[] = [];
    for (const op of contract.operations) {
      if (!['POST', 'PUT', 'PATCH', 'DELETE'].includes(op.method) || op.access === 'disabled' || op.alias || reads.has(op.operationId)) continue;
      const file = path.join(ROOT, 'server/modules', op.tags[0], 'commands', `${op.operationId}.ts`);
      const exported = fs.existsSync(file) && new RegExp(`export (async )?function ${op.operationId}\\b|export const ${op.operationId}\\b`).test(fs.readFileSync(file, 'utf8'));
      if (!exported) missing.push(`${op.operationId} (${op.method} ${op.path}): server/modules/${op.tags[0]}/commands/${op.operationId}.ts exporting ${op.operationId}`);
    }
    expect(missing).to.deep.equal([]);
  });
});
