import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { generate, readSources, type Sources } from '../../server/cli/docs.ts';

/**
 * docs/configuration.md is generated from the configuration module (`npm run docs:generate`) and checked in CI
 * (`npm run docs:check`). These specs hold the generator to what the check promises: the committed page is
 * generated without errors, and a changed default, an undescribed variable, a stale description or a changed computed default each
 * fail it.
 */
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

describe('docs/configuration.md (generated from the configuration module)', () => {
  const sources = readSources(ROOT);
  const edit = (change: Partial<Sources>): Sources => ({ ...sources, ...change });
  const replace = (text: string, from: string, to: string) => {
    expect(text, `the configuration module still contains ${from}`).to.include(from);
    return text.replace(from, to);
  };

  it('generates from the current sources: every variable read is described (`npm run docs:check` also compares the page)', () => {
    const { errors } = generate(sources);
    expect(errors, errors.join('\n')).to.deep.equal([]);
  });

  it('lists every variable with its default from the code', () => {
    const { text } = generate(sources);
    expect(text).to.match(/\| `PORT` \| `3000` \| whole number, 0–65535 \|/);
    expect(text).to.match(/\| `DATABASE_URL` \| unset \|/);
    expect(text).to.match(/\| `SESSION_TTL_SECONDS` \| `604800` \|/);
    expect(text).to.match(/\| `SERVER_URL` \|/);
  });

  it('changes when a default changes in the code', () => {
    const { text, errors } = generate(edit({ configText: replace(sources.configText, "int(env, 'PORT', 3000,", "int(env, 'PORT', 3001,") }));
    expect(errors).to.deep.equal([]);
    expect(text).to.not.equal(generate(sources).text);
    expect(text).to.match(/\| `PORT` \| `3001` \|/);
  });

  it('fails on a variable the configuration module reads without a description', () => {
    const configText = replace(sources.configText, "host: str(env, 'HOST')", "newThing: str(env, 'NEW_THING'),\n    host: str(env, 'HOST')");
    const { errors } = generate(edit({ configText }));
    expect(errors.join('\n')).to.match(/NEW_THING: read by .* but not described/);
  });

  it('fails on a process.env read elsewhere in server/ without a description', () => {
    const { errors } = generate(edit({ others: { ...sources.others, 'server/somewhere.ts': 'const x = process.env.SOMETHING_NEW;' } }));
    expect(errors.join('\n')).to.match(/SOMETHING_NEW: read as process\.env\.SOMETHING_NEW in server\/somewhere\.ts/);
  });

  it('fails on a description of a variable nothing reads', () => {
    const descriptionsText = replace(sources.descriptionsText, '      PORT:\n', "      GONE_VARIABLE:\n        purpose: 'no longer read'\n      PORT:\n");
    const { errors } = generate(edit({ descriptionsText }));
    expect(errors.join('\n')).to.match(/GONE_VARIABLE: described .* does not read it/);
  });

  it('fails when a computed default changes until its description is revisited', () => {
    const configText = replace(sources.configText, "bool(env, 'VALIDATE_RESPONSES', nodeEnv !== 'production')", "bool(env, 'VALIDATE_RESPONSES', nodeEnv === 'development')");
    const { errors } = generate(edit({ configText }));
    expect(errors.join('\n')).to.match(/VALIDATE_RESPONSES: its default is computed .* the code changed/);
  });
});
