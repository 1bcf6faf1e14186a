import { Kind, type GraphQLResolveInfo, type SelectionSetNode } from 'graphql';

/**
 * Whether the field being resolved selects `name` directly (through inline fragments and fragment
 * spreads too). Lets a resolver skip asking a backend for data nobody selected: an impact summary
 * without `records` is a totals-only read, quick over 10 000 positions.
 */
export function selectsField(info: GraphQLResolveInfo, name: string): boolean {
  const seen = new Set<string>();
  const walk = (set: SelectionSetNode | undefined): boolean =>
    (set?.selections ?? []).some((s) => {
      if (s.kind === Kind.FIELD) return s.name.value === name;
      if (s.kind === Kind.INLINE_FRAGMENT) return walk(s.selectionSet);
      if (seen.has(s.name.value)) return false;
      seen.add(s.name.value);
      return walk(info.fragments[s.name.value]?.selectionSet);
    });
  return info.fieldNodes.some((node) => walk(node.selectionSet));
}
