import { z } from 'zod';
import { MAX_YEAR, MIN_YEAR } from '@green-impact/proto/rules';

/**
 * The answer side of the catalogue: what every /v1/call operation answers with 200, as a zod 4 schema
 * and a realistic example. Each domain's `answers.ts` maps its operation names to an AnswerDeclaration;
 * v1/openapi.ts writes the 200 responses of GET /v1/openapi.json from them (z.toJSONSchema), a unit test
 * checks every example against its schema, and an e2e test every real answer.
 *
 * Objects are strict: an answer carrying a key its schema does not name fails, so a schema cannot fall
 * behind what the gateway sends. Shapes more than one answer shares are registered here under a
 * component name (SHARED_ANSWER_SHAPES) and become `#/components/schemas/<name>` references.
 */

/** One operation's 200 answer: the body's schema and an example of it. */
export interface AnswerDeclaration<S extends z.ZodType = z.ZodType> {
  answer: S;
  example: z.output<S>;
}

/** operation name → its answer, for the operations of one solution (or part of one). */
export type Answers = Readonly<Record<string, AnswerDeclaration>>;

/** Declares an answer, the example type-checked against the schema. */
export function answer<S extends z.ZodType>(schema: S, example: z.output<S>): AnswerDeclaration<S> {
  return { answer: schema, example };
}

/** Shared shapes by component name (filled by shared()). */
const shapes: Record<string, z.ZodType> = {};

/** Registers a shape as a named component of the OpenAPI document. */
export function shared<S extends z.ZodType>(name: string, schema: S): S {
  if (shapes[name]) throw new Error(`The answer shape ${name} is declared twice.`);
  shapes[name] = schema;
  return schema;
}

/** Every shared answer shape, by component name. */
export const SHARED_ANSWER_SHAPES: Readonly<Record<string, z.ZodType>> = shapes;

/** A database id (int64, within JavaScript's safe integers). */
export const id = () => z.int().min(1);
/** A reporting year, as the services take and store them. */
export const year = () => z.int().min(MIN_YEAR).max(MAX_YEAR);
/** An ISO 4217 currency code as stored (uppercase). */
export const currencyCode = () => z.string().regex(/^[A-Z]{3}$/);
/** A calendar date, YYYY-MM-DD. */
export const isoDate = () => z.string().regex(/^\d{4}-\d{2}-\d{2}$/);
/** An ISO 8601 timestamp. */
export const timestamp = () => z.string().min(1).meta({ format: 'date-time' });
export const yesNo = () => z.enum(['yes', 'no']);
export const visibility = () => z.enum(['public', 'private']);

/** `{message}`: the answer of every change, with the service's text. */
export const messageAnswer = shared(
  'Message',
  z.strictObject({ message: z.string().min(1) }).meta({ description: 'A change done: the service\'s text (the spec\'s where it gives one).' }),
);
/** A change's answer, its example the service's text `message`. */
export const changed = (message: string) => answer(messageAnswer, { message });

/**
 * A confirmation object (spec): ONE key, the service's success text, valued by what was removed. The key
 * is a message, so it is described by what its value is, not by name.
 */
export function confirmation<V extends z.ZodType>(value: V, description: string) {
  return z
    .record(z.string().min(1), value)
    .refine((o) => Object.keys(o).length === 1, 'A confirmation has exactly one key.')
    .meta({ description, minProperties: 1, maxProperties: 1 });
}

/** A goal map as /v1/call answers it (number → name): keys in goal-number order. */
export function goals(map: Readonly<Record<string, string>> | undefined): Record<string, string> {
  const entries = Object.entries(map ?? {}).sort(([a], [b]) => Number(a) - Number(b) || a.localeCompare(b));
  return Object.fromEntries(entries);
}

/** A goal map: goal (or objective) number → its name in the answer's language. */
export const goalMap = shared(
  'GoalMap',
  z.record(z.string().regex(/^\d+$/), z.string()).meta({ description: 'Goal or objective number → its name, in number order.' }),
);

/** An indicator with its super indicator and unit. */
export const indicatorFields = {
  indicator_id: id(),
  indicator_name: z.string(),
  super_indicator_id: id(),
  super_indicator_name: z.string(),
  unit_id: id(),
  unit_name: z.string(),
};

/** Where a row sits in the taxonomy: category, sub category, super indicator, indicator and unit. */
export const taxonomyPathFields = {
  category_id: id(),
  category_name: z.string(),
  sub_category_id: id(),
  sub_category_name: z.string(),
  ...indicatorFields,
};

/** An indicator with its super indicator and unit as the examples show it. */
export const exampleIndicator = {
  indicator_id: 21,
  indicator_name: 'Annual electricity generated',
  super_indicator_id: 5,
  super_indicator_name: 'Renewable energy generated',
  unit_id: 2,
  unit_name: 'MWh',
};

/** A taxonomy path as the examples show it. */
export const examplePath = {
  category_id: 3,
  category_name: 'Renewable energy',
  sub_category_id: 12,
  sub_category_name: 'Solar power',
  super_indicator_id: 5,
  super_indicator_name: 'Renewable energy generated',
  indicator_id: 21,
  indicator_name: 'Annual electricity generated',
  unit_id: 2,
  unit_name: 'MWh',
};

/** The framework summary the examples show. */
export const exampleSummary = {
  framework_id: 9,
  framework_identifier: 'GF-2024',
  framework_name: 'Green bond framework 2024',
  framework_value_outstanding: 500_000_000,
  framework_allocated_amount: 420_000_000,
  framework_active_percentage: 84,
  framework_currency_code: 'EUR',
  value_outstanding_framework: 'yes' as const,
  framework_visibility: 'public' as const,
};

/** A framework, project or asset row as the examples show it, but its currency field. */
export const exampleRowFields = {
  ...examplePath,
  sub_category_volume: 120_000_000,
  indicator_value: 85_000,
  year: 2024,
  sdg: { '7': 'Affordable and clean energy' },
  eu_objective: { '1': 'Climate change mitigation' },
  language: 'English',
};
