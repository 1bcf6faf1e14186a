import { EntitySchema } from 'typeorm';

export const SCHEMA = 'identity';

export type AccountRoleName = 'operator' | 'user';
export type UserRoleName = 'user' | 'admin';

export interface AccountRow {
  id: string;
  name: string;
  role: AccountRoleName;
  createdAt: Date;
}

export interface ApiKeyRow {
  id: string;
  accountId: string;
  keyHash: string;
  hint: string;
  createdAt: Date;
  revokedAt: Date | null;
  lastUsedAt: Date | null;
}

export interface GroupRow {
  id: number;
  name: string;
}

export interface UserRow {
  id: number;
  accountId: string;
  userIdentifier: string;
  firstName: string | null;
  lastName: string | null;
  email: string | null;
  role: UserRoleName;
  /** HMAC fingerprint of the key the PII fields are encrypted with; null when stored in clear. */
  keyFingerprint: string | null;
  createdAt: Date;
  updatedAt: Date;
}

export interface UserGroupRow {
  userId: number;
  groupId: number;
}

export interface UserInvestorRow {
  id: number;
  userId: number;
  investorIdentifier: string;
  createdAt: Date;
}

export const AccountEntity = new EntitySchema<AccountRow>({
  name: 'Account',
  tableName: 'accounts',
  schema: SCHEMA,
  columns: {
    id: { type: 'uuid', primary: true },
    name: { type: 'varchar', length: 255 },
    role: { type: 'varchar', length: 16 },
    createdAt: { name: 'created_at', type: 'timestamptz', createDate: true },
  },
});

export const ApiKeyEntity = new EntitySchema<ApiKeyRow>({
  name: 'ApiKey',
  tableName: 'api_keys',
  schema: SCHEMA,
  columns: {
    id: { type: 'uuid', primary: true },
    accountId: { name: 'account_id', type: 'uuid' },
    keyHash: { name: 'key_hash', type: 'char', length: 64 },
    hint: { type: 'varchar', length: 8 },
    createdAt: { name: 'created_at', type: 'timestamptz', createDate: true },
    revokedAt: { name: 'revoked_at', type: 'timestamptz', nullable: true },
    lastUsedAt: { name: 'last_used_at', type: 'timestamptz', nullable: true },
  },
});

export const GroupEntity = new EntitySchema<GroupRow>({
  name: 'Group',
  tableName: 'groups',
  schema: SCHEMA,
  columns: {
    id: { type: 'int', primary: true },
    name: { type: 'varchar', length: 64 },
  },
});

export const UserEntity = new EntitySchema<UserRow>({
  name: 'User',
  tableName: 'users',
  schema: SCHEMA,
  columns: {
    id: { type: 'int', primary: true, generated: 'increment' },
    accountId: { name: 'account_id', type: 'uuid' },
    userIdentifier: { name: 'user_identifier', type: 'varchar', length: 255 },
    firstName: { name: 'first_name', type: 'text', nullable: true },
    lastName: { name: 'last_name', type: 'text', nullable: true },
    email: { type: 'text', nullable: true },
    role: { type: 'varchar', length: 8 },
    keyFingerprint: { name: 'key_fingerprint', type: 'char', length: 64, nullable: true },
    createdAt: { name: 'created_at', type: 'timestamptz', createDate: true },
    updatedAt: { name: 'updated_at', type: 'timestamptz', updateDate: true },
  },
});

export const UserGroupEntity = new EntitySchema<UserGroupRow>({
  name: 'UserGroup',
  tableName: 'user_groups',
  schema: SCHEMA,
  columns: {
    userId: { name: 'user_id', type: 'int', primary: true },
    groupId: { name: 'group_id', type: 'int', primary: true },
  },
});

export const UserInvestorEntity = new EntitySchema<UserInvestorRow>({
  name: 'UserInvestor',
  tableName: 'user_investors',
  schema: SCHEMA,
  columns: {
    id: { type: 'int', primary: true, generated: 'increment' },
    userId: { name: 'user_id', type: 'int' },
    investorIdentifier: { name: 'investor_identifier', type: 'varchar', length: 255 },
    createdAt: { name: 'created_at', type: 'timestamptz', createDate: true },
  },
});

export const identityEntities = [
  AccountEntity,
  ApiKeyEntity,
  GroupEntity,
  UserEntity,
  UserGroupEntity,
  UserInvestorEntity,
];
