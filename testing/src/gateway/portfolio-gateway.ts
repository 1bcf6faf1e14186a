import { data, gqlAt } from './graphql-calls.js';
import { startTestGateway, type TestGateway, type TestGatewayOptions } from './real-gateway.js';

/**
 * The real gateway and services the portfolio tests start from: EUR registered by the operator and the
 * user's public EUR framework GBF, made through the services' own APIs. Each test adds its items. `env`
 * and `options` as startTestGateway's (the chain service, say).
 */
export async function startPortfolioGateway(env: Record<string, string> = {}, options: TestGatewayOptions = {}): Promise<TestGateway> {
  const t = await startTestGateway(env, { ...options, portfolio: true });
  await t.taxonomy!.client.addCurrency({ currencyCode: 'EUR' }, { caller: t.operator });
  data(await gqlAt(t.baseUrl, 'mutation { addFramework(input: { identifier: "GBF", name: "Green Bond Framework", currencyCode: "EUR", visibility: PUBLIC }) { id } }', {}, t.userKey));
  return t;
}
