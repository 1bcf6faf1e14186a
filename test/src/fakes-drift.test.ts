import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { productionSources } from './support/sources.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const FAKES = join(root, 'gateway', 'src', 'testing');

/**
 * The gateway's fakes (gateway/src/testing/fake-*.ts) are typed with the generated service definitions,
 * so their methods and messages cannot drift from the contracts. What the types cannot see are the texts:
 * a fake that answers with an error text (or a success message) the real service never produces lets a
 * gateway test pass against an answer no client will get. Every text a fake answers with must be one its
 * service can build: a literal of the service's sources, or an instance of a template there.
 */
const OWNERS: [prefix: string, sources: string[]][] = [
  // The portfolio service relays the taxonomy's refusals (a framework's year specifics, FX rates).
  ['fake-portfolio', ['portfolio', 'taxonomy']],
  ['fake-recompute-jobs', ['portfolio']],
  ['fake-taxonomy', ['taxonomy']],
  ['fake-frameworks', ['taxonomy']],
  ['fake-projects', ['taxonomy']],
  ['fake-owned', ['taxonomy']],
  ['fake-chain', ['chain']],
  ['fake-identity', ['identity']],
  // Paging as services/shared/src/paging.ts pages.
  ['fake-pages', []],
  ['fake-paging', []],
];

/** A text as its source builds it: literal parts, and holes (`${…}`, or anything concatenated in) as null. */
type Pattern = (string | null)[];

function parse(path: string): ts.SourceFile {
  return ts.createSourceFile(path, readFileSync(path, 'utf8'), ts.ScriptTarget.Latest, true);
}

/**
 * The texts an expression can be: a conditional is either branch, a name of the file's own constant is
 * its value; anything else is a hole.
 */
function patternsOf(node: ts.Expression, consts: Map<string, ts.Expression>): Pattern[] {
  if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return [[node.text]];
  if (ts.isTemplateExpression(node)) return [[node.head.text, ...node.templateSpans.flatMap((s) => [null, s.literal.text])]];
  if (ts.isParenthesizedExpression(node)) return patternsOf(node.expression, consts);
  if (ts.isConditionalExpression(node)) return [...patternsOf(node.whenTrue, consts), ...patternsOf(node.whenFalse, consts)];
  if (ts.isIdentifier(node) && consts.has(node.text)) return patternsOf(consts.get(node.text)!, consts);
  if (ts.isBinaryExpression(node) && node.operatorToken.kind === ts.SyntaxKind.PlusToken) {
    const right = patternsOf(node.right, consts);
    return patternsOf(node.left, consts).flatMap((l) => right.map((r) => [...l, ...r]));
  }
  return [[null]];
}

/** The file's top-level `const NAME = <expression>`. */
function constantsOf(file: ts.SourceFile): Map<string, ts.Expression> {
  const found = new Map<string, ts.Expression>();
  for (const statement of file.statements) {
    if (!ts.isVariableStatement(statement)) continue;
    for (const d of statement.declarationList.declarations) if (ts.isIdentifier(d.name) && d.initializer) found.set(d.name.text, d.initializer);
  }
  return found;
}

const literalLength = (p: Pattern) => p.reduce((n, part) => n + (part?.length ?? 0), 0);
const shown = (p: Pattern) => p.map((part) => part ?? '${…}').join('');

/** Every text a service's sources build: string literals, templates and `+` chains (outermost only). */
function serviceTexts(dir: string): RegExp[] {
  const found: RegExp[] = [];
  const visit = (node: ts.Node) => {
    const text =
      ts.isStringLiteral(node) ||
      ts.isNoSubstitutionTemplateLiteral(node) ||
      ts.isTemplateExpression(node) ||
      (ts.isBinaryExpression(node) && node.operatorToken.kind === ts.SyntaxKind.PlusToken);
    if (text) {
      for (const p of patternsOf(node as ts.Expression, new Map())) {
        if (literalLength(p) < 4) continue;
        const body = p.map((part) => (part === null ? '[\\s\\S]+' : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))).join('');
        found.push(new RegExp(`^${body}$`));
      }
    }
    // Nested templates are texts too (`${n === 1 ? 'record' : 'records'}` parts are matched by the outer hole).
    ts.forEachChild(node, visit);
  };
  for (const file of productionSources(dir)) visit(parse(file));
  return found;
}

interface FakeText {
  where: string;
  kind: 'error' | 'message';
  pattern: Pattern;
}

/** The texts a fake answers with: the first argument of `new …Error(…)` and `message:` of an answer. */
function fakeTexts(path: string): FakeText[] {
  const file = parse(path);
  const consts = constantsOf(file);
  const out: FakeText[] = [];
  const where = (node: ts.Node) => `${relative(root, path)}:${file.getLineAndCharacterOfPosition(node.getStart()).line + 1}`;
  const visit = (node: ts.Node) => {
    if (ts.isNewExpression(node) && ts.isIdentifier(node.expression) && /.Error$/.test(node.expression.text) && node.arguments?.[0]) {
      for (const pattern of patternsOf(node.arguments[0], consts)) out.push({ where: where(node), kind: 'error', pattern });
    }
    if (ts.isPropertyAssignment(node) && ts.isIdentifier(node.name) && node.name.text === 'message') {
      for (const pattern of patternsOf(node.initializer, consts)) out.push({ where: where(node), kind: 'message', pattern });
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return out;
}

/** A fake's text is the service's when a service template matches it with the fake's own holes filled by anything. */
function produces(texts: RegExp[], p: Pattern): boolean {
  const sample = p.map((part) => part ?? '\u0001').join('');
  return texts.some((re) => re.test(sample));
}

describe("the gateway fakes answer with their services' texts", () => {
  const services = [...new Set(OWNERS.flatMap(([, names]) => names))];
  const texts = new Map(services.map((name) => [name, serviceTexts(join(root, 'services', name, 'src'))]));
  const shared = serviceTexts(join(root, 'services', 'shared', 'src'));
  const fakes = readdirSync(FAKES).filter((f) => f.startsWith('fake-') && f.endsWith('.ts') && !f.endsWith('.test.ts'));
  const owners = (file: string) => OWNERS.find(([prefix]) => file.startsWith(prefix))?.[1];

  it('every fake file with texts belongs to a service', () => {
    const orphans = fakes.filter((f) => !owners(f) && fakeTexts(join(FAKES, f)).length > 0);
    assert.deepEqual(orphans, [], 'add the file to OWNERS');
  });

  for (const file of fakes.filter((f) => owners(f))) {
    const names = owners(file)!;
    it(`${file} (${['shared', ...names].join(', ')})`, () => {
      const own = [...names.flatMap((name) => texts.get(name)!), ...shared];
      const found = fakeTexts(join(FAKES, file));
      const opaque = found.filter((t) => literalLength(t.pattern) === 0);
      assert.deepEqual(
        opaque.map((t) => t.where),
        [],
        'a fake builds its texts from literals, templates and its own constants, so they can be checked',
      );
      const drifted = found.filter((t) => !produces(own, t.pattern)).map((t) => `${t.where} ${t.kind}: ${shown(t.pattern)}`);
      assert.deepEqual(drifted, [], 'texts the services never produce');
    });
  }

  it('finds a drifted text when there is one (the check itself)', () => {
    const portfolio = [...texts.get('portfolio')!, ...shared];
    assert.ok(produces(portfolio, ['No such asset ', null, '.']));
    assert.ok(produces(portfolio, ['Asset "SE0001" is still held by positions 5, 6; remove them first.']));
    assert.ok(!produces(portfolio, ['No such asset: ', null, '.']));
    assert.ok(!produces(portfolio, ['No such ', null, '.']), 'a hole stands for a value, not for words the service writes');
  });
});
