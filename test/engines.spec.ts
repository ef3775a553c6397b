import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { DB_TAG, ENGINE_INDEPENDENT_SPECS } from './helpers/engines.ts';

const root = path.dirname(fileURLToPath(import.meta.url));

function specFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return specFiles(full);
    return entry.name.endsWith('.spec.ts') ? [path.relative(root, full).split(path.sep).join('/')] : [];
  });
}

/** A title (of a describe or an it) carrying the tag: the first string argument of the call. */
const TAGGED_TITLE = new RegExp(`\\b(?:describe|context|it|specify)(?:\\.only|\\.skip)?\\(\\s*(['"\`])[^'"\`]*${DB_TAG}\\b`);

describe('the PostgreSQL leg: every spec file is tagged (DB_TAG) or listed as engine-independent (test/helpers/engines.ts)', () => {
  const files = specFiles(root).sort();
  const listed = new Set(ENGINE_INDEPENDENT_SPECS);
  const tagged = files.filter((file) => TAGGED_TITLE.test(fs.readFileSync(path.join(root, file), 'utf8')));

  it('has no spec file that is neither tagged nor listed', () => {
    expect(files.filter((file) => !tagged.includes(file) && !listed.has(file))).to.deep.equal([]);
  });

  it('lists no tagged file and no file that does not exist', () => {
    expect(tagged.filter((file) => listed.has(file))).to.deep.equal([]);
    expect([...listed].filter((file) => !files.includes(file))).to.deep.equal([]);
  });

  it('finds the tag where it is written (a describe or an it title), so the grep runs something', () => {
    expect(tagged.length).to.be.greaterThan(0);
    expect(TAGGED_TITLE.test(`  it('races for the last seat ${DB_TAG}', async () => {`)).to.equal(true);
    expect(TAGGED_TITLE.test(`  // a comment naming ${DB_TAG}`)).to.equal(false);
  });
});
