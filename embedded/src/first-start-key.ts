import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import type { EmbeddedConfig } from './config.js';

/**
 * How a newcomer gets an API key in the embedded default. With BOOTSTRAP_API_KEY set, that key becomes
 * the first operator's on first start. Without it, the first start on an empty data directory makes a
 * random operator key and keeps it (mode 0600) in the data directory, so `npm start` alone is enough.
 */
export function firstStartKey(config: EmbeddedConfig): {
  bootstrapApiKey: string | undefined;
  howToGetAKey(gatewayUrl: string): string[];
} {
  const file = join(config.dataDir, 'operator-api-key');
  let bootstrapApiKey = config.bootstrapApiKey;
  let source = 'BOOTSTRAP_API_KEY';
  if (!bootstrapApiKey && !config.databaseUrl) {
    mkdirSync(config.dataDir, { recursive: true });
    if (!existsSync(file)) writeFileSync(file, `gi_${randomBytes(32).toString('base64url')}\n`, { mode: 0o600 });
    bootstrapApiKey = readFileSync(file, 'utf8').trim();
    source = file;
  }
  return {
    bootstrapApiKey,
    howToGetAKey: (url) =>
      bootstrapApiKey
        ? [
            `API key: the first operator's key is in ${source} (it is the operator key only if this data directory was new when it was made).`,
            `  curl -s ${url}/v1/call -H 'Content-Type: application/json' -H "X-Api-Key: ${source === 'BOOTSTRAP_API_KEY' ? '$BOOTSTRAP_API_KEY' : `$(cat ${file})`}" \\`,
            `    -d '{"solution":"SVC.ESG.Credits","operation":"getGroups"}'`,
            `  Make keys for other accounts with the GraphQL mutation createAccount(input: {name, role}).`,
          ]
        : ['API key: set BOOTSTRAP_API_KEY on first start to create the first operator account.'],
  };
}
