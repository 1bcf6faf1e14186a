import {
  GraphQLError,
  Kind,
  Lexer,
  Source,
  TokenKind,
  getNamedType,
  getNullableType,
  isInterfaceType,
  isListType,
  isObjectType,
  print,
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLField,
  type GraphQLOutputType,
  type OperationDefinitionNode,
  type SelectionSetNode,
  type ValidationContext,
  type ValidationRule,
} from 'graphql';
import { Counter } from 'prom-client';
import { metricsRegistry } from '@green-impact/shared/metrics';
import { MAX_NODE_IDS } from './node-ids.js';
import { MAX_PAGE } from './pagination.js';

/**
 * Query limits, enforced as validation rules before anything runs, so a hostile document costs one parse
 * and one walk. Both limits follow fragment spreads and inline fragments.
 *
 * - **Depth**: the longest chain of nested fields (`me { id }` is 2). The schema's deepest honest path
 *   (portfolio → positions → asset → framework → rows → indicator → …) stays well below the default.
 * - **Cost**: an estimate of the fields the answer holds. Each field costs 1; the selection under a field
 *   that returns a list (or a connection's `nodes`) is multiplied by its `first` argument: the literal,
 *   else the argument's default, or 1,000 when a variable gives it; a list without `first` counts
 *   `defaultListSize`; `nodes(ids:)` counts its ids (100, the most it takes, when a variable gives them).
 *   Each distinct root field (its name and arguments) adds CALL_COST more: it is at least one backend call,
 *   and identical calls are made once per request (backend-calls.ts), so an alias that repeats a root
 *   field with the same arguments adds its fields but no call. A request may have several operations:
 *   each is checked on its own.
 * - **Aliases and root fields**: counted per operation (through fragments, each time a fragment is
 *   spread). Aliases are how one document asks for the same work many times over; root fields are the
 *   backend calls a document starts at once. Both are capped, so a document of 500 aliased root fields is
 *   refused before it reaches a service, whatever its estimated cost.
 * - Introspection fields are not measured: their size is the schema's (and introspection is off in
 *   production).
 * - **Work**: the measure costs what the document costs, not what it expands to. Each fragment is walked
 *   once per context (its type and the page size it is spread under) and remembered, so 40 fragments
 *   each spreading the next twice are 40 walks, not 2^40 (issue 46). The rule visits at most
 *   MAX_VISITED_SELECTIONS selections per document; past that the document is refused unmeasured.
 *   graphql-js's own rules (OverlappingFieldsCanBeMerged, NoFragmentCycles, NoUnusedFragments…) collect
 *   fragments with a visited set and a work budget (graphql 16.15), so they stay linear on such documents.
 */
export interface QueryLimits {
  maxDepth: number;
  maxCost: number;
  /** Assumed length of a list whose size the query does not bound with a literal `first`. */
  defaultListSize: number;
  /** Aliased fields (alias differing from the field's name) an operation may have: GRAPHQL_MAX_ALIASES. */
  maxAliases: number;
  /** Fields an operation may ask for at its root: GRAPHQL_MAX_ROOT_FIELDS. */
  maxRootFields: number;
  /** Selections the rule may visit in one document (MAX_VISITED_SELECTIONS); past it the document is refused. */
  maxVisitedSelections: number;
}

/** What one distinct root field adds to the cost besides its fields: the backend call it makes. */
export const CALL_COST = 10;

/** Also protects parse itself: graphql-js recurses per nesting level, so a huge document must stop early. */
export const MAX_QUERY_TOKENS = 10_000;

/**
 * Selections the limit rule may visit for one document, whatever its fragments: each fragment is measured
 * once per context (its parent type and page size), so an honest document visits each of its selections a
 * few times at most, and a document that would need more is refused unmeasured (QUERY_TOO_COMPLEX).
 */
export const MAX_VISITED_SELECTIONS = 4 * MAX_QUERY_TOKENS;

export const DEFAULT_QUERY_LIMITS: QueryLimits = {
  maxDepth: 12,
  maxCost: 250_000,
  defaultListSize: 10,
  maxAliases: 30,
  maxRootFields: 20,
  maxVisitedSelections: MAX_VISITED_SELECTIONS,
};

/** Work done by the rule, so tests (and operators) can see it stay linear in the document. */
export const limitVisits = new Counter({
  name: 'gateway_graphql_limit_visited_selections_total',
  help: 'Selections (fields, fragment spreads, inline fragments) the GraphQL query-limit rule visited.',
  registers: [metricsRegistry],
});

export function queryLimitRules(limits: QueryLimits = DEFAULT_QUERY_LIMITS): ValidationRule[] {
  return [
    (context: ValidationContext) => {
      // One measure per document: a fragment spread by several operations is measured once.
      const measure = new Measure(context, limits);
      return {
        OperationDefinition(operation: OperationDefinitionNode) {
          const name = operation.name ? `Operation ${operation.name.value}` : 'The operation';
          const refuse = (message: string) =>
            context.reportError(new GraphQLError(message, { nodes: [operation], extensions: { code: 'QUERY_TOO_COMPLEX' } }));
          let measured: Measured;
          let roots: { count: number; calls: number };
          try {
            const root = context.getSchema().getRootType(operation.operation);
            measured = measure.selection(operation.selectionSet, root ?? undefined);
            roots = measure.rootFields(operation.selectionSet);
          } catch (err) {
            if (!(err instanceof OverBudget)) throw err;
            refuse(`${name} is too complex to measure: its fragments expand past ${limits.maxVisitedSelections} selections. Spread fewer fragments.`);
            return false;
          } finally {
            measure.flush();
          }
          const cost = measured.cost + CALL_COST * roots.calls;
          if (measured.depth > limits.maxDepth) {
            refuse(`${name} is nested ${measured.depth} levels deep; at most ${limits.maxDepth} are allowed.`);
          } else if (measured.aliases > limits.maxAliases) {
            refuse(
              `${name} has ${measured.aliases} aliased fields; at most ${limits.maxAliases} are allowed (GRAPHQL_MAX_ALIASES). ` +
                'Ask for a field once and reuse its answer.',
            );
          } else if (roots.count > limits.maxRootFields) {
            refuse(
              `${name} asks for ${roots.count} root fields; at most ${limits.maxRootFields} are allowed (GRAPHQL_MAX_ROOT_FIELDS). ` +
                'Split it into several requests.',
            );
          } else if (cost > limits.maxCost) {
            refuse(
              `${name} could return about ${about(cost)} fields; at most ${limits.maxCost} are allowed. ` +
                'Ask for fewer fields or smaller pages (first).',
            );
          }
          return false;
        },
      };
    },
  ];
}

/**
 * What a selection set asks for: `depth` levels of fields below it, its estimated `cost`, its aliased
 * fields (a fragment's count each time it is spread).
 */
interface Measured {
  depth: number;
  cost: number;
  aliases: number;
}

/** Thrown when a document's measure would visit more than MAX_VISITED_SELECTIONS selections. */
class OverBudget extends Error {}

const NOTHING: Measured = { depth: 0, cost: 0, aliases: 0 };

/**
 * Measures selection sets, each fragment once per context: a fragment's measure depends on its type
 * condition (its parent) and the page size of the connection it is spread in, never on where it is
 * spread otherwise, so it is memoised by those and reused for every further spread. A document of 40
 * fragments each spreading the next twice costs 40 fragment walks, not 2^40.
 */
class Measure {
  private readonly fragments: Map<string, FragmentDefinitionNode>;
  private readonly measured = new Map<string, Measured>();
  private readonly rootCounts = new Map<string, number>();
  /** Fragments being measured: a spread of one of them is a cycle (reported by NoFragmentCyclesRule). */
  private readonly open = new Set<string>();
  private visited = 0;
  private counted = 0;

  constructor(
    private readonly context: ValidationContext,
    private readonly limits: QueryLimits,
  ) {
    this.fragments = new Map(
      context
        .getDocument()
        .definitions.filter((d): d is FragmentDefinitionNode => d.kind === Kind.FRAGMENT_DEFINITION)
        .map((f) => [f.name.value, f]),
    );
  }

  /** Adds the selections visited since the last flush to the counter. */
  flush(): void {
    limitVisits.inc(this.visited - this.counted);
    this.counted = this.visited;
  }

  private visit(): void {
    if (++this.visited > this.limits.maxVisitedSelections) throw new OverBudget();
  }

  /** Depth (levels below `set`), cost and aliases of a selection set. */
  selection(set: SelectionSetNode, parent: GraphQLOutputType | undefined, pageSize?: number): Measured {
    let depth = 0;
    let cost = 0;
    let aliases = 0;
    for (const node of set.selections) {
      this.visit();
      let inner: Measured;
      if (node.kind === Kind.FIELD) {
        inner = this.field(node, parent, pageSize);
      } else if (node.kind === Kind.INLINE_FRAGMENT) {
        const typed = node.typeCondition ? this.context.getSchema().getType(node.typeCondition.name.value) : parent;
        inner = this.selection(node.selectionSet, (typed as GraphQLOutputType | undefined) ?? parent, pageSize);
      } else {
        inner = this.spread(node.name.value, parent, pageSize);
      }
      depth = Math.max(depth, inner.depth);
      cost += inner.cost;
      aliases += inner.aliases;
    }
    return { depth, cost, aliases };
  }

  /** A fragment's measure, walked the first time it is met in this context and remembered. */
  private spread(name: string, parent: GraphQLOutputType | undefined, pageSize: number | undefined): Measured {
    const fragment = this.fragments.get(name);
    if (!fragment || this.open.has(name)) return NOTHING;
    const typed = (this.context.getSchema().getType(fragment.typeCondition.name.value) as GraphQLOutputType | undefined) ?? parent;
    const key = `${name}\u0000${typed ? getNamedType(typed).name : ''}\u0000${pageSize ?? ''}`;
    let known = this.measured.get(key);
    if (!known) {
      this.open.add(name);
      try {
        known = this.selection(fragment.selectionSet, typed, pageSize);
      } finally {
        this.open.delete(name);
      }
      this.measured.set(key, known);
    }
    return known;
  }

  /**
   * The root fields of an operation through fragments: how many (a fragment's each time it is spread) and
   * how many distinct calls (name and arguments); __typename and introspection make no call. Each
   * fragment is walked once for its count and once for its calls.
   */
  rootFields(set: SelectionSetNode): { count: number; calls: number } {
    const calls = new Set<string>();
    const reached = new Set<string>();
    const collect = (selections: SelectionSetNode): void => {
      for (const node of selections.selections) {
        this.visit();
        if (node.kind === Kind.FIELD) {
          if (!node.name.value.startsWith('__')) calls.add(print({ ...node, alias: undefined, selectionSet: undefined, directives: [] }));
        } else if (node.kind === Kind.INLINE_FRAGMENT) {
          collect(node.selectionSet);
        } else if (!reached.has(node.name.value)) {
          reached.add(node.name.value);
          const fragment = this.fragments.get(node.name.value);
          if (fragment) collect(fragment.selectionSet);
        }
      }
    };
    collect(set);
    return { count: this.rootCount(set), calls: calls.size };
  }

  private rootCount(set: SelectionSetNode): number {
    let count = 0;
    for (const node of set.selections) {
      this.visit();
      if (node.kind === Kind.FIELD) count += node.name.value.startsWith('__') ? 0 : 1;
      else if (node.kind === Kind.INLINE_FRAGMENT) count += this.rootCount(node.selectionSet);
      else {
        const name = node.name.value;
        const fragment = this.fragments.get(name);
        if (!fragment || this.open.has(name)) continue;
        let known = this.rootCounts.get(name);
        if (known === undefined) {
          this.open.add(name);
          try {
            known = this.rootCount(fragment.selectionSet);
          } finally {
            this.open.delete(name);
          }
          this.rootCounts.set(name, known);
        }
        count += known;
      }
    }
    return count;
  }

  /**
   * A connection's page size (its `first`) applies to the list inside it (`nodes`), passed down as
   * `pageSize`; any other list takes its own `first` or the default.
   */
  private field(node: FieldNode, parent: GraphQLOutputType | undefined, pageSize?: number): Measured {
    const aliased = node.alias && node.alias.value !== node.name.value ? 1 : 0;
    // Introspection (__schema, __type) is as big as the schema and no bigger: it is not measured.
    if (!node.selectionSet || node.name.value.startsWith('__')) return { depth: 1, cost: 1, aliases: aliased };
    const definition = fieldOf(parent, node.name.value);
    const type = definition?.type;
    const named = type ? getNamedType(type) : undefined;
    const connection = named !== undefined && named.name.endsWith('Connection');
    const inner = this.selection(node.selectionSet, named, connection ? this.listSize(node, definition) : undefined);
    const many = type !== undefined && isListType(getNullableType(type)) ? (pageSize ?? this.listSize(node, definition)) : 1;
    return { depth: inner.depth + 1, cost: 1 + many * inner.cost, aliases: aliased + inner.aliases };
  }

  /**
   * The `first` a list field will get: the literal, else the argument's default; a variable is not known
   * at validation, so it counts as the largest page (MAX_PAGE, the largest any list field accepts). Without a `first`, the default size.
   * nodes(ids:) counts its ids: a literal list's length, a variable as the most nodes() takes (MAX_NODE_IDS).
   */
  private listSize(node: FieldNode, definition: GraphQLField<unknown, unknown> | undefined): number {
    const ids = node.arguments?.find((a) => a.name.value === 'ids');
    if (ids?.value.kind === Kind.LIST) return Math.max(1, ids.value.values.length);
    if (ids?.value.kind === Kind.VARIABLE) return MAX_NODE_IDS;
    // A backward page (last) is sized like a forward one; the resolver refuses both together.
    const first = node.arguments?.find((a) => a.name.value === 'first') ?? node.arguments?.find((a) => a.name.value === 'last');
    if (first?.value.kind === Kind.INT) return Math.max(1, Number(first.value.value));
    if (first?.value.kind === Kind.VARIABLE) return MAX_PAGE;
    const fallback = definition?.args.find((a) => a.name === 'first')?.defaultValue;
    return typeof fallback === 'number' ? fallback : this.limits.defaultListSize;
  }
}

/** A count for a message: exact while it is, else its power of ten (a 40-level fragment DAG's cost is 10^40). */
function about(n: number): string {
  return n < 1e15 ? String(Math.round(n)) : `10^${Math.floor(Math.log10(n))}`;
}

function fieldOf(parent: GraphQLOutputType | undefined, name: string): GraphQLField<unknown, unknown> | undefined {
  const named = parent ? getNamedType(parent) : undefined;
  return named && (isObjectType(named) || isInterfaceType(named)) ? named.getFields()[name] : undefined;
}

/** Brackets ({, (, [) a document may have open at once; checked before parse, which recurses per level. */
export const MAX_NESTING = 100;

/**
 * The deepest bracket nesting of a GraphQL document, by a linear scan that skips strings, block strings
 * and comments. graphql-js's parser recurses per level and overflows the stack (a RangeError) a few
 * thousand levels down, before its token limit triggers; this check runs first and stops at `limit`.
 */
export function nestingOf(source: string, limit = MAX_NESTING): number {
  let depth = 0;
  let deepest = 0;
  for (let i = 0; i < source.length; i++) {
    const c = source[i];
    if (c === '#') {
      while (i < source.length && source[i] !== '\n' && source[i] !== '\r') i++;
    } else if (c === '"') {
      if (source.startsWith('"""', i)) {
        const end = source.indexOf('"""', i + 3);
        i = end < 0 ? source.length : end + 2;
      } else {
        for (i++; i < source.length && source[i] !== '"' && source[i] !== '\n'; i++) if (source[i] === '\\') i++;
      }
    } else if (c === '{' || c === '(' || c === '[') {
      deepest = Math.max(deepest, ++depth);
      if (deepest > limit) return deepest;
    } else if (c === '}' || c === ')' || c === ']') {
      depth--;
    }
  }
  return deepest;
}

/** The error for a document nested deeper than MAX_NESTING, or undefined when it is fine. */
export function nestingError(source: unknown): GraphQLError | undefined {
  if (typeof source !== 'string' || nestingOf(source) <= MAX_NESTING) return undefined;
  return new GraphQLError(`The document nests brackets more than ${MAX_NESTING} levels deep; it was not parsed.`, {
    extensions: { code: 'QUERY_TOO_COMPLEX' },
  });
}

/**
 * Aliases written in a document, by its tokens alone: a name followed by a colon inside a selection set
 * (outside parentheses, where arguments, variables and input objects hold `name:` too), its alias
 * differing from its field's name. Stops counting past `limit`. A document that does not lex counts 0:
 * the parser reports it.
 */
export function aliasesIn(source: string, limit: number): number {
  const lexer = new Lexer(new Source(source));
  let parens = 0;
  let aliases = 0;
  try {
    let previous = lexer.advance();
    while (previous.kind !== TokenKind.EOF && aliases <= limit) {
      const token = lexer.advance();
      if (previous.kind === TokenKind.PAREN_L) parens++;
      else if (previous.kind === TokenKind.PAREN_R) parens--;
      else if (parens === 0 && previous.kind === TokenKind.NAME && token.kind === TokenKind.COLON) {
        const field = lexer.lookahead();
        if (field.kind !== TokenKind.NAME || field.value !== previous.value) aliases++;
      }
      previous = token;
    }
  } catch {
    return 0;
  }
  return aliases;
}

/**
 * The error for a document with more than `maxAliases` aliases, or undefined. Checked on the text before
 * Apollo parses and validates (which costs a bomb of 500 aliases some 15 ms of CPU), so refusing it costs
 * one lexer pass; the validation rule stays the authority (fragments spread twice, WebSocket operations).
 */
export function aliasError(source: unknown, maxAliases: number): GraphQLError | undefined {
  if (typeof source !== 'string') return undefined;
  const aliases = aliasesIn(source, maxAliases);
  if (aliases <= maxAliases) return undefined;
  return new GraphQLError(
    `The document has more than ${maxAliases} aliased fields; at most ${maxAliases} are allowed (GRAPHQL_MAX_ALIASES). ` +
      'Ask for a field once and reuse its answer.',
    { extensions: { code: 'QUERY_TOO_COMPLEX' } },
  );
}
