import { fileURLToPath } from 'node:url';

/** Directory holding the .proto sources, for server reflection and proto-loader. */
export const protoRoot = fileURLToPath(new URL('../../', import.meta.url));

/** Proto files per service, relative to {@link protoRoot}. */
export const protoFiles = {
  identity: 'greenimpact/identity/v1/identity.proto',
  taxonomy: 'greenimpact/taxonomy/v1/taxonomy.proto',
  portfolio: 'greenimpact/portfolio/v1/portfolio.proto',
  chain: 'greenimpact/chain/v1/chain.proto',
} as const;
