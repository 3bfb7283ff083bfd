/**
 * The chart's optional parts, checked in each rendering against the values that produced it: each
 * part is there exactly when its switch is on (CI renders every values file in charts/trove/ci, and
 * between them each switch is on and off), and holds what an operator counts on.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { ROOT } from './consistency.ts';
import type { KubeObject } from './kube-objects.ts';
import { unknownMetrics } from './metric-names.ts';

// biome-ignore lint/suspicious/noExplicitAny: chart values and manifest fields, read as rendered
type Loose = any;
type Values = Record<string, Loose>;

function podContainers(workload: KubeObject): Loose[] {
  return workload.spec?.template?.spec?.containers ?? [];
}
const CHART_FILES = join(ROOT, 'charts/trove/files');
// A URL with a password (scheme://user:password@host): never in a ConfigMap or a plain env value.
const PASSWORD_URL = /[a-z]+:\/\/[^:/@\s]*:[^@\s]+@/i;

function present(objects: KubeObject[], kind: string, test: (o: KubeObject) => boolean = () => true): KubeObject[] {
  return objects.filter((o) => o.kind === kind && test(o));
}

/** Problems of one rendering; `promtool` checks the alert rules where it is installed. */
export function checkFeatures(values: Values, objects: KubeObject[], operatorApi: boolean): string[] {
  const problems: string[] = [];
  const expect = (ok: boolean, what: string) => {
    if (!ok) problems.push(what);
  };
  const deployments = present(objects, 'Deployment');

  // helm test: the hook pod and its script, as shipped in files/.
  const testPods = present(objects, 'Pod', (o) => o.metadata.annotations?.['helm.sh/hook'] === 'test');
  expect(
    testPods.length === (values.tests.enabled ? 1 : 0),
    `tests.enabled=${values.tests.enabled}: ${testPods.length} test pods`,
  );
  if (values.tests.enabled) {
    const script = present(objects, 'ConfigMap').find((o) => o.data?.['helm-test.mjs'] !== undefined);
    expect(
      script?.data?.['helm-test.mjs'] === readFileSync(join(CHART_FILES, 'helm-test.mjs'), 'utf8'),
      'the test ConfigMap does not hold files/helm-test.mjs as it is',
    );
  }

  // Alerts: only where the Prometheus Operator's API is served.
  const rules = present(objects, 'PrometheusRule');
  const wantRules = values.metrics.prometheusRule.enabled && operatorApi;
  expect(
    rules.length === (wantRules ? 1 : 0),
    `prometheusRule: ${rules.length} PrometheusRules, expected ${wantRules ? 1 : 0}`,
  );
  for (const rule of rules) {
    problems.push(...promtoolRules(rule));
    for (const group of rule.spec?.groups ?? [])
      for (const r of group.rules ?? [])
        for (const name of unknownMetrics(String(r.expr)))
          problems.push(`alert ${r.alert} reads ${name}, which no Trove process exports`);
  }

  const dashboards = present(objects, 'ConfigMap', (o) => o.data?.['trove.json'] !== undefined);
  expect(
    dashboards.length === (values.metrics.grafanaDashboard.enabled ? 1 : 0),
    `grafanaDashboard: ${dashboards.length} dashboards`,
  );
  for (const dashboard of dashboards) {
    try {
      const json = JSON.parse(dashboard.data?.['trove.json'] ?? '') as { panels?: Loose[] };
      expect((json.panels?.length ?? 0) > 0, 'the Grafana dashboard has no panels');
      for (const panel of json.panels ?? [])
        for (const target of panel.targets ?? [])
          for (const name of unknownMetrics(String(target.expr)))
            problems.push(`dashboard panel "${panel.title}" reads ${name}, which no Trove process exports`);
    } catch (error) {
      problems.push(`the Grafana dashboard is not JSON: ${(error as Error).message}`);
    }
  }

  for (const deployment of deployments) {
    const name = deployment.metadata.name;
    const spec = deployment.spec?.template?.spec ?? {};
    const component = Object.entries(values.components as Record<string, Values>).find(([key]) =>
      name.endsWith(`-${key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`),
    )?.[1];
    for (const container of podContainers(deployment)) {
      for (const probe of ['startupProbe', 'livenessProbe', 'readinessProbe'] as const) {
        expect(container[probe] !== undefined, `${name}/${container.name}: no ${probe}`);
      }
      expect(container.resources?.requests !== undefined, `${name}/${container.name}: no resource requests`);
      expect(container.resources?.limits?.memory !== undefined, `${name}/${container.name}: no memory limit`);
      problems.push(...plainPasswords(name, container));
    }
    const spread = (spec.topologySpreadConstraints ?? []).length > 0;
    expect(
      spread === (values.topologySpread.enabled || Boolean(component?.topologySpreadConstraints)),
      `${name}: topology spread ${spread}`,
    );
    const pdbs = present(objects, 'PodDisruptionBudget', (o) => o.metadata.name === name).length;
    expect(
      pdbs === (component?.pdb?.enabled ? 1 : 0),
      `${name}: ${pdbs} PodDisruptionBudgets, pdb.enabled=${component?.pdb?.enabled}`,
    );
    if (values.networkPolicy.enabled) {
      expect(
        present(objects, 'NetworkPolicy', (o) => o.metadata.name === name).length === 1,
        `${name}: no NetworkPolicy`,
      );
    }
    if (component?.gpu?.enabled) {
      const main = podContainers(deployment)[0];
      expect(spec.runtimeClassName === component.gpu.runtimeClassName, `${name}: GPU profile without runtimeClassName`);
      expect(
        main.resources?.limits?.['nvidia.com/gpu'] !== undefined,
        `${name}: GPU profile without an nvidia.com/gpu limit`,
      );
      expect(
        (main.env ?? []).some((e: { name: string }) => e.name === 'NVIDIA_DRIVER_CAPABILITIES'),
        `${name}: GPU profile without NVIDIA_DRIVER_CAPABILITIES`,
      );
      expect(
        (spec.tolerations ?? []).some((t: { key?: string }) => t.key === 'nvidia.com/gpu'),
        `${name}: GPU profile without the nvidia.com/gpu toleration`,
      );
      expect(
        main.startupProbe?.failureThreshold === component.gpu.startupProbe.failureThreshold,
        `${name}: GPU profile without its start-up allowance`,
      );
    }
  }
  for (const configMap of present(objects, 'ConfigMap')) {
    for (const [key, text] of Object.entries(configMap.data ?? {})) {
      expect(
        !PASSWORD_URL.test(String(text)),
        `ConfigMap ${configMap.metadata.name}/${key} holds a URL with a password`,
      );
    }
  }
  return problems;
}

function plainPasswords(name: string, container: Loose): string[] {
  return ((container.env ?? []) as { name: string; value?: string }[])
    .filter((e) => e.value !== undefined && PASSWORD_URL.test(e.value))
    .map((e) => `${name}/${container.name}: ${e.name} holds a password in plain env (use a Secret)`);
}

function promtoolRules(rule: KubeObject): string[] {
  if (spawnSync('promtool', ['--version'], { stdio: 'ignore' }).status !== 0) return [];
  const dir = mkdtempSync(join(tmpdir(), 'trove-rules-'));
  try {
    const file = join(dir, 'rules.yaml');
    writeFileSync(file, stringify({ groups: rule.spec?.groups ?? [] }));
    const run = spawnSync('promtool', ['check', 'rules', file], { encoding: 'utf8' });
    if (run.status !== 0)
      return [`promtool check rules: ${(run.stdout + run.stderr).trim().split('\n').slice(-3).join(' ')}`];
    // The alerts' behaviour on given series, where the rendering has every alert the tests name.
    const alerts = new Set((rule.spec?.groups ?? []).flatMap((g: Loose) => (g.rules ?? []).map((r: Loose) => r.alert)));
    if (rule.metadata.name !== 'trove' || !alerts.has('TroveMemoryChangeFeedLag') || !alerts.has('Trove5xxRate'))
      return [];
    writeFileSync(join(dir, 'tests.yaml'), readFileSync(join(import.meta.dirname, 'alert-tests.yaml')));
    const test = spawnSync('promtool', ['test', 'rules', join(dir, 'tests.yaml')], { encoding: 'utf8' });
    return test.status === 0
      ? []
      : [
          `promtool test rules (scripts/chart/alert-tests.yaml): ${(test.stdout + test.stderr).trim().split('\n').slice(-6).join(' ')}`,
        ];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
