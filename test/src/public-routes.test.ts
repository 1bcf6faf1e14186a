import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { createGateway, type Gateway } from '@green-impact/gateway';
import { loadGatewayConfig } from '@green-impact/gateway/config';
import { createLogger } from '@green-impact/shared/logger';
import { kustomizationResources, repoRoot, type K8sObject } from './support/infra/manifests.js';

/** The probes: reached by the kubelet and Prometheus inside the cluster, never through the public entry. */
const PROBES = ['/healthz', '/readyz', '/metrics'];

interface Listed { path: string | RegExp; router?: { listRoutes(): Listed[] } | undefined }

/** Every path the gateway's express app answers, mounted routers walked (router 2's listRoutes). */
function routePaths(routes: Listed[], prefix = ''): string[] {
  return routes.flatMap(({ path, router }) => {
    assert.equal(typeof path, 'string', `a route by RegExp (${String(path)}) cannot be compared with the manifests' prefixes`);
    const full = `${prefix}${path === '/' ? '' : String(path)}`;
    return router ? routePaths(router.listRoutes(), full) : [full];
  });
}

/** /v1/call → /v1: what an Ingress or HTTPRoute prefix must name for the route to be reached. */
const firstSegment = (path: string) => `/${path.split('/')[1]}`;
const sorted = (values: Iterable<string>) => [...new Set(values)].sort();

function ingressPaths(objects: K8sObject[]): string[] {
  return objects.filter((o) => o.kind === 'Ingress')
    .flatMap((o) => (o['spec'].rules as Array<Record<string, any>>).flatMap((r) => (r['http'].paths as Array<{ path: string }>).map((p) => p.path)));
}

function httpRoutePaths(objects: K8sObject[]): string[] {
  return objects.filter((o) => o.kind === 'HTTPRoute')
    .flatMap((o) => (o['spec'].rules as Array<Record<string, any>>).flatMap((r) => (r['matches'] as Array<{ path: { type: string; value: string } }>).map((m) => {
      // A prefix, or a single file matched exactly (/trust-anchor.json): both name the gateway's first segment.
      assert.ok(['PathPrefix', 'Exact'].includes(m.path.type), `HTTPRoute ${o.metadata.name}: ${m.path.value} is matched by ${m.path.type}`);
      return m.path.value;
    })));
}

describe('every public route of the gateway is routed by both manifests (issue 46)', () => {
  let gateway: Gateway;
  let publicPaths: string[];

  before(() => {
    // Only the app's routing is read: no backend is called, nothing listens.
    const config = loadGatewayConfig({ IDENTITY_GRPC_ADDR: '127.0.0.1:1', HOST: '127.0.0.1', PORT: '0' });
    gateway = createGateway({ config, log: createLogger('public-routes-test', { level: 'silent' }) });
    // The server's request listener is the express app.
    const app = gateway.server.listeners('request')[0] as unknown as { router: { listRoutes(): Listed[] } };
    const paths = routePaths(app.router.listRoutes());
    assert.ok(paths.some((p) => p.startsWith('/reports/')), `the walk finds the mounted routers' routes: ${paths.join(', ')}`);
    publicPaths = sorted(paths.filter((p) => !PROBES.includes(p)).map(firstSegment));
  });
  after(() => gateway.close());

  const component = (name: string) => kustomizationResources(join(repoRoot, 'infra', 'k8s', 'components', name));

  it('components/ingress routes each public path prefix of the gateway, and no probe', () => {
    const routed = sorted(ingressPaths(component('ingress')));
    assert.deepEqual(routed, publicPaths);
  });

  it('components/gateway-api (the HTTPRoute) routes each public path prefix of the gateway, and no probe', () => {
    const routed = sorted(httpRoutePaths(component('gateway-api')));
    assert.deepEqual(routed, publicPaths);
  });
});
