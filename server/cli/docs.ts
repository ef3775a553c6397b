/**
 * `npm run docs:generate`: writes `docs/configuration.md` from the server's configuration module
 * (`server/platform/config.ts`, or `server/platform/config.ts` once it moves) and the descriptions kept in
 * `docs/configuration.descriptions.yaml`.
 *
 * What the code knows comes from the code: the generator reads the module's syntax tree (TypeScript's parser),
 * finds every variable it reads — every call whose first argument is `env` and whose second is a name literal
 * (`str(env, 'PORT')`, `int(…)`, `bool(…)`, `oneOf(…)`, `httpUrl(…)`), every `env.NAME` / `env['NAME']` — and
 * takes each one's default, kind, range and allowed values from the call. Anything else under `server/` that reads
 * `process.env.NAME` is listed too. What only a person can say (the purpose; how a computed default reads in
 * words) comes from the descriptions file.
 *
 * `npm run docs:check` (`--check`): exits 1 when `docs/configuration.md` is not what would be generated (a
 * default, range or description changed), when a variable the server reads has no description, when a
 * description names a variable nothing reads, or when a computed default changed since it was described (CI runs
 * it, as it runs `contract:check`).
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { parse } from 'yaml';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const CONFIG_CANDIDATES = ['server/platform/config.ts', 'server/platform/config.ts'];
const DESCRIPTIONS = 'docs/configuration.descriptions.yaml';
const TARGET = 'docs/configuration.md';
const NAME = /^[A-Z][A-Z0-9_]*$/;

/** How a helper's arguments read: where its default is, and what else it tells. */
const HELPERS: Record<string, { defaultArg?: number; kind: string; describe?: (args: readonly ts.Expression[], source: ts.SourceFile) => string }> = {
  str: { kind: 'text' },
  int: {
    defaultArg: 2,
    kind: 'whole number',
    describe: (args, source) => `whole number, ${formatNumber(evaluate(args[3], source))}–${formatNumber(evaluate(args[4], source))}`,
  },
  bool: { defaultArg: 2, kind: 'true/false', describe: () => '`true` / `false`' },
  oneOf: {
    defaultArg: 3,
    kind: 'one of',
    describe: (args, source) => {
      const list = unwrap(args[2]);
      if (!ts.isArrayLiteralExpression(list)) return 'one of a fixed list';
      return `one of ${list.elements.map((element) => `\`${literalText(element, source)}\``).join(', ')}`;
    },
  },
  httpUrl: { defaultArg: 2, kind: 'URL', describe: () => '`http(s)://` URL' },
  origins: { kind: 'origins', describe: () => 'comma-separated origins (`https://host[:port]`)' },
};

export interface Read {
  name: string;
  helper: string;
  /** The default as written: a literal's value, or the expression's source text when it is computed. */
  default?: { literal: true; value: string } | { literal: false; expression: string };
  accepts?: string;
  line: number;
  file: string;
}

interface Description {
  purpose: string;
  /** How a computed default reads in words; only for a default the code computes. */
  default?: string;
  /** The computed default's expression as written in the code when it was described; must match. */
  computed?: string;
}

interface DescriptionsFile {
  intro?: string;
  groups: { title: string; text?: string; variables: Record<string, Description> }[];
  elsewhere?: { title: string; text?: string; variables: Record<string, Description & { file: string }> };
}

function unwrap(node: ts.Expression): ts.Expression {
  let current = node;
  while (ts.isParenthesizedExpression(current) || ts.isAsExpression(current) || ts.isSatisfiesExpression(current)) current = current.expression;
  return current;
}

function literalText(node: ts.Expression, source: ts.SourceFile): string {
  const inner = unwrap(node);
  if (ts.isStringLiteral(inner) || ts.isNoSubstitutionTemplateLiteral(inner)) return inner.text;
  return inner.getText(source);
}

/** A constant number expression (`7 * 24 * 3600`, `10_000`), or undefined when it is not one. */
function evaluate(node: ts.Expression | undefined, source: ts.SourceFile): number | undefined {
  if (!node) return undefined;
  const inner = unwrap(node);
  if (ts.isNumericLiteral(inner)) return Number(inner.text.replaceAll('_', ''));
  if (ts.isPrefixUnaryExpression(inner) && inner.operator === ts.SyntaxKind.MinusToken) {
    const value = evaluate(inner.operand, source);
    return value === undefined ? undefined : -value;
  }
  if (ts.isBinaryExpression(inner)) {
    const left = evaluate(inner.left, source);
    const right = evaluate(inner.right, source);
    if (left === undefined || right === undefined) return undefined;
    switch (inner.operatorToken.kind) {
      case ts.SyntaxKind.AsteriskToken: return left * right;
      case ts.SyntaxKind.PlusToken: return left + right;
      case ts.SyntaxKind.MinusToken: return left - right;
      case ts.SyntaxKind.SlashToken: return left / right;
      default: return undefined;
    }
  }
  return undefined;
}

function formatNumber(value: number | undefined): string {
  return value === undefined ? '?' : String(value);
}

/** The default a read falls back to, from the helper's argument or from `str(env, 'X') ?? fallback`. */
function defaultOf(call: ts.CallExpression, helper: string, source: ts.SourceFile): Read['default'] {
  const spec = HELPERS[helper];
  let node: ts.Expression | undefined;
  if (spec?.defaultArg !== undefined) node = call.arguments[spec.defaultArg];
  else {
    let child: ts.Node = call;
    let parent = call.parent;
    while (parent && ts.isParenthesizedExpression(parent)) {
      child = parent;
      parent = parent.parent;
    }
    if (parent && ts.isBinaryExpression(parent) && parent.operatorToken.kind === ts.SyntaxKind.QuestionQuestionToken && parent.left === child) {
      node = parent.right;
    }
  }
  if (!node) return undefined;
  const inner = unwrap(node);
  if (ts.isStringLiteral(inner) || ts.isNoSubstitutionTemplateLiteral(inner)) return { literal: true, value: inner.text };
  if (inner.kind === ts.SyntaxKind.TrueKeyword) return { literal: true, value: 'true' };
  if (inner.kind === ts.SyntaxKind.FalseKeyword) return { literal: true, value: 'false' };
  const number = evaluate(inner, source);
  if (number !== undefined) return { literal: true, value: String(number) };
  return { literal: false, expression: inner.getText(source).replace(/\s+/g, ' ') };
}

/** Every environment variable a configuration module reads, in source order (a name read twice is listed twice). */
export function configReads(text: string, file = 'server/platform/config.ts'): { reads: Read[]; errors: string[] } {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const reads: Read[] = [];
  const errors: string[] = [];
  const lineOf = (node: ts.Node) => source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1;
  const visit = (node: ts.Node): void => {
    if (ts.isCallExpression(node) && node.arguments.length >= 2) {
      const [first, second] = node.arguments;
      const nameNode = unwrap(second);
      if (ts.isIdentifier(unwrap(first)) && (unwrap(first) as ts.Identifier).text === 'env' && ts.isStringLiteral(nameNode) && NAME.test(nameNode.text)) {
        const helper = ts.isIdentifier(node.expression) ? node.expression.text : node.expression.getText(source);
        const spec = HELPERS[helper];
        if (!spec) errors.push(`${file}:${lineOf(node)}: ${nameNode.text} is read through ${helper}(), which ${path.relative(ROOT, fileURLToPath(import.meta.url))} does not know: add it to HELPERS`);
        reads.push({
          name: nameNode.text,
          helper,
          default: defaultOf(node, helper, source),
          accepts: spec?.describe?.(node.arguments, source),
          line: lineOf(node),
          file,
        });
      }
    }
    if (ts.isPropertyAccessExpression(node) && ts.isIdentifier(node.expression) && node.expression.text === 'env' && NAME.test(node.name.text)) {
      reads.push({ name: node.name.text, helper: 'env', line: lineOf(node), file });
    }
    if (ts.isElementAccessExpression(node) && ts.isIdentifier(node.expression) && node.expression.text === 'env') {
      const argument = unwrap(node.argumentExpression);
      if (ts.isStringLiteral(argument) && NAME.test(argument.text)) reads.push({ name: argument.text, helper: 'env', line: lineOf(node), file });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return { reads, errors };
}

/** `process.env.NAME` / `process.env['NAME']` reads in a file other than the configuration module. */
export function processEnvReads(text: string, file: string): Read[] {
  const reads: Read[] = [];
  const pattern = /process\.env(?:\.([A-Z][A-Z0-9_]*)|\[\s*['"]([A-Z][A-Z0-9_]*)['"]\s*\])/g;
  for (const match of text.matchAll(pattern)) {
    const line = text.slice(0, match.index).split('\n').length;
    reads.push({ name: match[1] ?? match[2], helper: 'process.env', line, file });
  }
  return reads;
}

function walk(dir: string): string[] {
  const out: string[] = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...walk(full));
    else if (/\.(ts|tsx)$/.test(entry.name)) out.push(full);
  }
  return out;
}

export function configFile(root = ROOT): string {
  const found = CONFIG_CANDIDATES.find((candidate) => fs.existsSync(path.join(root, candidate)));
  if (!found) throw new Error(`no configuration module: looked for ${CONFIG_CANDIDATES.join(', ')}`);
  return found;
}

export interface Sources {
  configPath: string;
  configText: string;
  /** Other server files: path → text (scanned for process.env reads). */
  others: Record<string, string>;
  descriptionsText: string;
}

export function readSources(root = ROOT): Sources {
  const configPath = configFile(root);
  const others: Record<string, string> = {};
  for (const full of walk(path.join(root, 'server'))) {
    const relative = path.relative(root, full).split(path.sep).join('/');
    if (relative === configPath || relative === 'server/cli/docs.ts') continue;
    others[relative] = fs.readFileSync(full, 'utf8');
  }
  return {
    configPath,
    configText: fs.readFileSync(path.join(root, configPath), 'utf8'),
    others,
    descriptionsText: fs.readFileSync(path.join(root, DESCRIPTIONS), 'utf8'),
  };
}

function cell(text: string): string {
  return text.replace(/\s*\n\s*/g, ' ').replaceAll('|', '\\|').trim();
}

function code(value: string): string {
  return value === '' ? '(empty)' : `\`${value}\``;
}

/** docs/configuration.md from the sources, or the reasons it cannot be generated. */
export function generate(sources: Sources): { text: string; errors: string[] } {
  const { reads, errors } = configReads(sources.configText, sources.configPath);
  const descriptions = parse(sources.descriptionsText) as DescriptionsFile;
  const byName = new Map<string, Read[]>();
  for (const read of reads) byName.set(read.name, [...(byName.get(read.name) ?? []), read]);
  const elsewhere = new Map<string, Read[]>();
  for (const [file, text] of Object.entries(sources.others).sort(([a], [b]) => a.localeCompare(b))) {
    for (const read of processEnvReads(text, file)) {
      if (byName.has(read.name)) continue;
      elsewhere.set(read.name, [...(elsewhere.get(read.name) ?? []), read]);
    }
  }

  const described = new Set<string>();
  const lines: string[] = [];
  lines.push('<!-- Generated by `npm run docs:generate` from ' + sources.configPath + ' and ' + DESCRIPTIONS + ': edit those. -->');
  lines.push('');
  lines.push('# Configuration');
  lines.push('');
  if (descriptions.intro) lines.push(descriptions.intro.trim().replaceAll('{config}', `[\`${sources.configPath}\`](../${sources.configPath})`), '');
  lines.push(`${byName.size} variables are read by the configuration module${elsewhere.size ? `, ${elsewhere.size} elsewhere` : ''}.`);
  lines.push('');

  const describeDefault = (name: string, description: Description, found: Read[]): string | undefined => {
    const defaults = found.map((read) => read.default).filter((value): value is NonNullable<Read['default']> => value !== undefined);
    const distinct = [...new Map(defaults.map((value) => [JSON.stringify(value), value])).values()];
    if (distinct.length > 1) {
      errors.push(`${name}: read with different defaults (${distinct.map((value) => (value.literal ? value.value : value.expression)).join(' / ')}) in ${sources.configPath}`);
      return undefined;
    }
    const value = distinct[0];
    if (!value) {
      if (description.computed) errors.push(`${name}: described as computed (\`${description.computed}\`) but ${sources.configPath} reads it without a default now: drop "computed" and "default" in ${DESCRIPTIONS}`);
      return description.default ?? 'unset';
    }
    if (value.literal) {
      if (description.default !== undefined || description.computed !== undefined) {
        errors.push(`${name}: its default is the literal ${code(value.value)} in ${sources.configPath}, read from the code: drop "default"/"computed" in ${DESCRIPTIONS}`);
      }
      return code(value.value);
    }
    if (description.computed !== value.expression || !description.default) {
      errors.push(
        `${name}: its default is computed in ${sources.configPath} as \`${value.expression}\`` +
          (description.computed && description.computed !== value.expression ? ` (described as \`${description.computed}\`: the code changed)` : '') +
          `: set "computed" to that expression and "default" to how it reads, in ${DESCRIPTIONS}`,
      );
      return description.default;
    }
    return description.default;
  };

  for (const group of descriptions.groups ?? []) {
    lines.push(`## ${group.title}`, '');
    if (group.text) lines.push(group.text.trim(), '');
    lines.push('| variable | default | accepts | purpose |', '|---|---|---|---|');
    for (const [name, description] of Object.entries(group.variables ?? {})) {
      if (described.has(name)) errors.push(`${name}: described twice in ${DESCRIPTIONS}`);
      described.add(name);
      const found = byName.get(name);
      if (!found) {
        errors.push(`${name}: described in ${DESCRIPTIONS} but ${sources.configPath} does not read it: remove it (or move it under "elsewhere" if another file reads it)`);
        continue;
      }
      if (!description?.purpose) errors.push(`${name}: no "purpose" in ${DESCRIPTIONS}`);
      const defaultText = describeDefault(name, description ?? { purpose: '' }, found) ?? '';
      const accepts = found.map((read) => read.accepts).find(Boolean) ?? 'text';
      lines.push(`| \`${name}\` | ${cell(defaultText)} | ${cell(accepts)} | ${cell(description?.purpose ?? '')} |`);
    }
    lines.push('');
  }
  for (const [name, found] of byName) {
    if (!described.has(name)) {
      errors.push(`${name}: read by ${sources.configPath}:${found[0].line} (${found[0].helper}) but not described: add it to ${DESCRIPTIONS} (its purpose; the default comes from the code)`);
    }
  }

  const other = descriptions.elsewhere;
  const otherDescribed = new Set<string>();
  if (elsewhere.size || other) {
    lines.push(`## ${other?.title ?? 'Read outside the configuration module'}`, '');
    if (other?.text) lines.push(other.text.trim(), '');
    lines.push('| variable | read by | default | purpose |', '|---|---|---|---|');
    for (const [name, description] of Object.entries(other?.variables ?? {})) {
      otherDescribed.add(name);
      if (described.has(name)) errors.push(`${name}: described twice in ${DESCRIPTIONS}`);
      const found = elsewhere.get(name);
      if (!found) {
        errors.push(`${name}: described under "elsewhere" in ${DESCRIPTIONS} but no file under server/ reads process.env.${name}: remove it`);
        continue;
      }
      const files = [...new Set(found.map((read) => read.file))];
      const links = files.map((file) => `[\`${file}\`](../${file})`).join(', ');
      lines.push(`| \`${name}\` | ${links} | ${cell(description.default ?? 'unset')} | ${cell(description.purpose ?? '')} |`);
    }
    lines.push('');
  }
  for (const [name, found] of elsewhere) {
    if (!otherDescribed.has(name)) {
      errors.push(`${name}: read as process.env.${name} in ${found[0].file}:${found[0].line} but not described: read it in ${sources.configPath}, or describe it under "elsewhere" in ${DESCRIPTIONS}`);
    }
  }
  return { text: `${lines.join('\n').trimEnd()}\n`, errors };
}

function main(): void {
  const check = process.argv.includes('--check');
  const sources = readSources();
  const { text, errors } = generate(sources);
  if (errors.length) {
    console.error(`${TARGET} cannot be generated:\n${errors.map((error) => `  - ${error}`).join('\n')}`);
    process.exit(1);
  }
  const target = path.join(ROOT, TARGET);
  const current = fs.existsSync(target) ? fs.readFileSync(target, 'utf8') : '';
  if (check) {
    if (current !== text) {
      console.error(`${TARGET} is stale: run \`npm run docs:generate\` and commit the result.`);
      process.exit(1);
    }
    console.log(`${TARGET} is up to date with ${sources.configPath} and ${DESCRIPTIONS}.`);
    return;
  }
  if (current === text) {
    console.log(`${TARGET} is already up to date.`);
    return;
  }
  fs.writeFileSync(target, text);
  console.log(`wrote ${TARGET} from ${sources.configPath} and ${DESCRIPTIONS}`);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    main();
  } catch (err) {
    console.error(err instanceof Error ? err.message : err);
    process.exit(1);
  }
}
