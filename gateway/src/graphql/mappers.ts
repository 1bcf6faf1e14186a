import {
  AccountRole,
  UserRole,
  type Account,
  type ApiKeyInfo,
  type Group,
  type User,
} from '@green-impact/proto/greenimpact/identity/v1/identity';
import { InternalError } from '@green-impact/shared/errors';
import type { InvestorDetails } from '../composition/investor-details.js';

/** proto messages → GraphQL object shapes (field names as in schema.ts). */

export type GqlAccountRole = 'OPERATOR' | 'USER';
export type GqlUserRole = 'USER' | 'ADMIN';

export function accountRoleToGql(role: AccountRole): GqlAccountRole {
  return role === AccountRole.ACCOUNT_ROLE_OPERATOR ? 'OPERATOR' : 'USER';
}

export function account(a: Account) {
  return { id: a.id, name: a.name, role: accountRoleToGql(a.role), createdAt: a.createdAt };
}

export function apiKey(k: ApiKeyInfo | undefined) {
  // identity always returns the key record; its absence is a contract breach, not a client error.
  if (!k) throw new InternalError('Internal error.', { cause: new Error('identity returned no key record') });
  return {
    id: k.id,
    accountId: k.accountId,
    hint: k.hint,
    createdAt: k.createdAt,
    revokedAt: k.revokedAt ?? null,
    lastUsedAt: k.lastUsedAt ?? null,
  };
}

export function group(g: Group) {
  return { id: g.id, name: g.group };
}

export function user(u: User) {
  return {
    id: u.userId,
    identifier: u.userIdentifier,
    firstName: u.userFirstName || null,
    lastName: u.userLastName || null,
    email: u.userEmail || null,
    role: (u.userRole === UserRole.USER_ROLE_ADMIN ? 'ADMIN' : 'USER') satisfies GqlUserRole,
    groups: u.userGroups.map(group),
    encrypted: u.encrypted,
    masked: u.masked,
  };
}

export function accessibleInvestor(i: InvestorDetails) {
  return { id: i.investorId, identifier: i.investorIdentifier, name: i.investorName };
}

export function messageResult(r: { message: string; id?: number | undefined }) {
  return { message: r.message, id: r.id ?? null };
}
