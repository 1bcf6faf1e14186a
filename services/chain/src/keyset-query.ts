import type { ObjectLiteral, SelectQueryBuilder } from 'typeorm';
import { keysetOf, ORDER_KEY, type ListingOrder, type PageToken } from '@green-impact/shared/paging';

/**
 * One keyset page (shared paging's keysetOf) of a chain listing whose filters are built with TypeORM's
 * query builder: LIMIT size + 1 entities after the token's item, or right before it when `backward`
 * (read against the order, for pageBeforeOf to turn around), each with its order value as text
 * (ORDER_KEY) for the page tokens. keysetOf's numbered parameters become the builder's named ones.
 */
export async function keysetPage<E extends ObjectLiteral>(
  q: SelectQueryBuilder<E>,
  order: ListingOrder,
  token: PageToken<unknown> | undefined,
  size: number,
  backward: boolean,
  owner?: string,
): Promise<(E & { [ORDER_KEY]?: string })[]> {
  const keyset = keysetOf(order, token, 1, backward, owner);
  if (keyset.where) {
    const params = Object.fromEntries(keyset.params.map((value, i) => [`keyset${i + 1}`, value]));
    q.andWhere(keyset.where.replace(/^ AND /, '').replace(/\$(\d+)/g, ':keyset$1'), params);
  }
  const dir = order.descending !== backward ? 'DESC' : 'ASC';
  const column = order.column;
  if (column) q.orderBy(column.sql, dir).addOrderBy(order.id.sql, dir).addSelect(`(${column.sql})::text`, ORDER_KEY);
  else q.orderBy(order.id.sql, dir);
  const { raw, entities } = await q.take(size + 1).getRawAndEntities<Record<string, string>>();
  return column ? entities.map((e, i) => Object.assign(e, { [ORDER_KEY]: raw[i]![ORDER_KEY] })) : entities;
}
