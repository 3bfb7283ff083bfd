/** The cluster-file checks (npm run chart:check) catch what they claim to catch. */
import { describe, expect, it } from 'vitest';
import { checkConsistency, dockerfileTargets, imageTarget } from '../../scripts/chart/consistency.ts';
import type { KubeObject } from '../../scripts/chart/kube-objects.ts';
import { validateObject } from '../../scripts/chart/kube-objects.ts';
import { parsePrometheusText } from './prometheus-text.ts';

function deployment(container: Record<string, unknown>): KubeObject {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'trove-memory-api' },
    spec: {
      selector: { matchLabels: { app: 'x' } },
      template: { metadata: { labels: { app: 'x' } }, spec: { containers: [container] } },
    },
  };
}
const good = {
  name: 'memory-api',
  image: 'ghcr.io/example/trove-memory-api:1.0.0',
  ports: [{ name: 'http', containerPort: 8767 }],
  env: [
    { name: 'PORT', value: '8767' },
    { name: 'LOG_LEVEL', value: 'info' },
  ],
  livenessProbe: { httpGet: { path: '/livez', port: 8767 } },
  readinessProbe: { httpGet: { path: '/readyz', port: 8767 } },
};

describe('consistency of manifests with the Dockerfile and the apps’ config schemas', () => {
  it('knows the Dockerfile targets and image names', () => {
    expect([...dockerfileTargets().keys()]).toEqual(expect.arrayContaining(['memory-api', 'errors-api', 'migrate']));
    expect(imageTarget('registry.local:5000/team/trove-errors-api:dev')).toBe('errors-api');
  });

  it('accepts a container that matches', async () => {
    expect(await checkConsistency([deployment(good)])).toEqual([]);
  });

  it('reports a variable the app does not read, a wrong port, a bad probe path and an unknown image', async () => {
    const problems = await checkConsistency([
      deployment({
        ...good,
        env: [...good.env.slice(0, 1), { name: 'REDIS_ADDRESS', value: 'redis:6379' }],
        ports: [{ name: 'http', containerPort: 9000 }],
        readinessProbe: { httpGet: { path: '/ready', port: 8767 } },
      }),
      deployment({ ...good, image: 'trove-search-api:1' }),
    ]);
    expect(problems).toEqual([
      expect.stringContaining('sets REDIS_ADDRESS, which apps/memory-api/src/config.ts does not read'),
      expect.stringContaining('PORT=8767 but the http containerPort is 9000'),
      expect.stringContaining('the image EXPOSEs 8767 but the chart serves HTTP on 9000'),
      expect.stringContaining('livenessProbe port 8767 is not the HTTP port 9000'),
      expect.stringContaining('readinessProbe path /ready is not served by the service kit'),
      expect.stringContaining('readinessProbe port 8767 is not the HTTP port 9000'),
      expect.stringContaining('image trove-search-api:1 is not built by any Dockerfile target'),
    ]);
  });

  it('validates objects against the Kubernetes schemas', () => {
    expect(validateObject(deployment(good))).toEqual([]);
    const broken = deployment({ ...good, ports: [{ name: 'http', containerPort: 'eighty' }] });
    expect(validateObject(broken)[0]).toMatch(/containerPort/);
    expect(validateObject({ apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w' } })[0]).toMatch(
      /no schema/,
    );
  });
});

describe('the Prometheus text reader', () => {
  it('reads samples with labels and escapes', () => {
    const samples = parsePrometheusText(
      '# HELP x y\n# TYPE http_requests_total counter\nhttp_requests_total{route="/a\\"b",code="200"} 3\nup 1 1700000000\n',
    );
    expect(samples).toEqual([
      { name: 'http_requests_total', labels: { route: '/a"b', code: '200' }, value: 3 },
      { name: 'up', labels: {}, value: 1 },
    ]);
  });

  it('rejects a line that is not a sample', () => {
    expect(() => parsePrometheusText('http_requests_total{route="/a"} three\n')).toThrow(/line 1/);
  });
});
