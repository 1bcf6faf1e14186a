import {
  isListType,
  isNonNullType,
  isObjectType,
  type GraphQLFieldResolver,
  type GraphQLObjectType,
  type GraphQLOutputType,
  type GraphQLSchema,
} from 'graphql';
import { DomainError, InvalidArgumentError, type ErrorCode } from '@green-impact/shared/errors';
import { selectsField } from './selects-field.js';
import { GRAPHQL_CODE_OF } from './error-codes.js';

/**
 * User errors as data in the change payloads (issue 21, Relay's mutation convention).
 *
 * Every payload carries `userErrors: [UserError!]!`. A client that selects it gets the caller's own
 * mistakes — invalid input, an item that does not exist, a conflict, a precondition — in the payload, with
 * the payload's other fields null (empty for its lists, `message` the first error's text), and the
 * response has no `errors`; later mutation fields of the same request still run. A client that does not
 * select it keeps the behaviour it had: the same error in the response's `errors`, the same code.
 * Refusals of the caller (UNAUTHENTICATED, PERMISSION_DENIED), rate limits and the service's own faults are
 * never user errors: they stay in `errors` whatever is selected, so nothing about authorization changes.
 * The services guarantee a refused change wrote nothing; this only moves where the refusal is reported.
 */

/** The domain codes that report the caller's mistake about the change itself. */
const USER_ERROR_DOMAIN_CODES: readonly ErrorCode[] = ['INVALID_ARGUMENT', 'NOT_FOUND', 'ALREADY_EXISTS', 'FAILED_PRECONDITION', 'PAYLOAD_TOO_LARGE'];

/** The codes userErrors answer: the same names as the error's extensions.code would carry (error-codes.ts). */
export const USER_ERROR_CODES = ['BAD_USER_INPUT', 'NOT_FOUND', 'CONFLICT', 'PAYLOAD_TOO_LARGE'] as const;
export type UserErrorCode = (typeof USER_ERROR_CODES)[number];

export interface UserError {
  message: string;
  code: UserErrorCode;
  /** The argument at fault as a path into the field's arguments (["input", "positions", "2", "amount"]); null when none is named. */
  path: string[] | null;
  /** The same place as one dotted label (input.name): the 1.0.0 shape, deprecated for path. */
  field: string | null;
}

/**
 * The path of the argument at fault: the label the error names (`input.name`), carried on into the
 * message's leading place when the message points inside it (`input.attributes[0].value must be …`).
 */
export function pathOf(field: string | undefined, message: string): string[] | null {
  if (field === undefined) return null;
  const inner = message.startsWith(field) ? /^(?:\[\d+\]|\.[A-Za-z_][A-Za-z0-9_]*)*/.exec(message.slice(field.length))?.[0] ?? '' : '';
  return `${field}${inner}`.split(/[.[\]]+/).filter((part) => part !== '');
}

/** The user error an error thrown by a change stands for; undefined when it is not one. */
export function asUserError(err: unknown): UserError | undefined {
  if (!(err instanceof DomainError) || !USER_ERROR_DOMAIN_CODES.includes(err.code)) return undefined;
  const field = err instanceof InvalidArgumentError ? err.field : undefined;
  return { message: err.message, code: GRAPHQL_CODE_OF[err.code] as UserErrorCode, path: pathOf(field, err.message), field: field ?? null };
}

/** SDL of the error type and its code enum. */
export const userErrorTypeDefs = `
  "A caller's mistake that stopped a change, answered as data in the payload's userErrors (when selected). docs/graphql.md, Errors."
  type UserError {
    "The message: the same text /v1/call answers and the response's errors would carry."
    message: String!
    "What kind of mistake it is: the same name the error's extensions.code carries when it is answered in errors."
    code: UserErrorCode!
    "The argument at fault as a path into the field's arguments, e.g. [\\"input\\", \\"positions\\", \\"2\\", \\"amount\\"]; null when the mistake is not about one argument (an item that does not exist, a conflict)."
    path: [String!]
    "The argument at fault as one dotted label (input.name); null when none is named."
    field: String @deprecated(reason: "Use path, the same place as a list of names and indexes.")
  }

  "The kinds of mistakes reported in userErrors; the same names as extensions.code."
  enum UserErrorCode {
    "A parameter is missing, of the wrong type, too long or out of range (gRPC INVALID_ARGUMENT)."
    BAD_USER_INPUT
    "The item named does not exist for the caller (gRPC NOT_FOUND)."
    NOT_FOUND
    "The item would duplicate one that exists, or the change does not fit the item's state, e.g. something still depends on it (gRPC ALREADY_EXISTS, FAILED_PRECONDITION)."
    CONFLICT
    "The input is larger than the service accepts."
    PAYLOAD_TOO_LARGE
    "Answered as BAD_USER_INPUT."
    INVALID_ARGUMENT @deprecated(reason: "Answered as BAD_USER_INPUT, the name extensions.code carries.")
    "Answered as CONFLICT."
    ALREADY_EXISTS @deprecated(reason: "Answered as CONFLICT, the name extensions.code carries.")
    "Answered as CONFLICT."
    FAILED_PRECONDITION @deprecated(reason: "Answered as CONFLICT, the name extensions.code carries.")
  }
`;

/** The userErrors field, as every payload type declares it. */
export const USER_ERRORS_FIELD = `
    "The caller's mistakes that stopped the change, as data; empty when the change was made. When selected, such a mistake is answered here, with the payload's other fields null or empty and no response error; when not, it stays in the response's errors. Refusals of the key and service faults always stay in errors."
    userErrors: [UserError!]!`;

/** The payload a change answers when it was refused for `errors`: message the first one's text, lists empty, the rest null. */
function refusedPayload(type: GraphQLObjectType, errors: UserError[]): Record<string, unknown> {
  const payload: Record<string, unknown> = { userErrors: errors };
  for (const [name, field] of Object.entries(type.getFields())) {
    if (name === 'userErrors') continue;
    if (name === 'message') payload[name] = errors[0]?.message ?? '';
    else if (isNonNullType(field.type) && isListType(field.type.ofType)) payload[name] = [];
    else payload[name] = null;
  }
  return payload;
}

/** The payload object type a mutation answers, when it carries userErrors. */
function payloadTypeOf(returnType: GraphQLOutputType): GraphQLObjectType | undefined {
  const type = isNonNullType(returnType) ? returnType.ofType : returnType;
  return isObjectType(type) && type.getFields()['userErrors'] ? type : undefined;
}

/**
 * Wires userErrors into a built schema: each payload's field answers the payload's errors (none on a
 * change that was made), and each mutation answering a payload reports a user error there when selected.
 */
export function withUserErrors(schema: GraphQLSchema): GraphQLSchema {
  for (const type of Object.values(schema.getTypeMap())) {
    if (!isObjectType(type) || type.name.startsWith('__')) continue;
    const field = type.getFields()['userErrors'];
    if (field) field.resolve = (payload: { userErrors?: UserError[] }) => payload.userErrors ?? [];
  }
  const mutation = schema.getMutationType();
  for (const field of Object.values(mutation?.getFields() ?? {})) {
    const payload = payloadTypeOf(field.type);
    if (field.resolve && payload) field.resolve = reportingUserErrors(field.resolve, payload);
  }
  return schema;
}

function reportingUserErrors(resolve: GraphQLFieldResolver<unknown, unknown>, payload: GraphQLObjectType): GraphQLFieldResolver<unknown, unknown> {
  return async (parent, args, ctx, info) => {
    if (!selectsField(info, 'userErrors')) return resolve(parent, args, ctx, info);
    try {
      return await resolve(parent, args, ctx, info);
    } catch (err) {
      const error = asUserError(err);
      if (!error) throw err;
      return refusedPayload(payload, [error]);
    }
  };
}
