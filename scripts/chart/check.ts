/**
 * `npm run chart:check`: what can be proven about the cluster files without a cluster.
 *  1. values.yaml, and it merged with each charts/trove/ci/*.yaml, pass values.schema.json; wrong
 *     values are rejected.
 *  2. The chart renders with each ci values file (Go text/template + sprig, as helm does), with and
 *     without the Prometheus Operator's API; every object passes the Kubernetes schemas; images,
 *     ports, probe paths and environment variables agree with the Dockerfile and the apps' config.
 *  3. `kubectl kustomize` of each k8s/overlays/* passes the same checks.
 *  4. The Tiltfile, run under a stub of Tilt's API, builds every image the chart uses.
 *  5. charts/trove/README.md's values tables are what values.yaml and values.schema.json make.
 * A missing tool (Go, kubectl, python3) skips its part with the reason, and the command then exits 2
 * ("passed, N skipped" is not "all passed") unless --allow-skips is given; under TROVE_REQUIRE_ALL=1
 * a skip is a failure. `--write` regenerates k8s/base/trove.yaml (failing when the renderer is missing)
 * and the README's values tables.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Ajv } from 'ajv';
import { parse } from 'yaml';
import { checkConsistency, dockerfileTargets, imagesOf, imageTarget, ROOT } from './consistency.ts';
import { checkFeatures } from './features.ts';
import { type KubeObject, parseObjects, validateObject } from './kube-objects.ts';
import { BASE_FILE, kustomizeBase } from './kustomize-base.ts';
import { buildRenderer, render, rendererMissing } from './render.ts';
import { README, valuesTables, withTables } from './values-doc.ts';
import { WRONG_VALUES } from './wrong-values.ts';

const CHART = join(ROOT, 'charts/trove');
const MONITORING = 'monitoring.coreos.com/v1';
const problems: string[] = [];
const requireAll = process.env.TROVE_REQUIRE_ALL === '1';
const allowSkips = process.argv.includes('--allow-skips');
const writeBase = process.argv.includes('--write');
const skipped: string[] = [];

function skip(part: string, missing: string): void {
  const line = `${part}: skipped, needs ${missing}`;
  if (requireAll) problems.push(`${line} (TROVE_REQUIRE_ALL=1)`);
  else if (writeBase && part === 'chart render')
    problems.push(`--write cannot regenerate k8s/base/trove.yaml: ${line}`);
  else console.log(`   SKIP ${line}`);
  skipped.push(line);
}
const has = (cmd: string, args: string[]) => spawnSync(cmd, args, { stdio: 'ignore' }).status === 0;

type Values = Record<string, unknown>;
function merge(base: Values, over: Values): Values {
  const out: Values = { ...base };
  for (const [k, v] of Object.entries(over)) {
    const b = out[k];
    const bothMaps = [b, v].every((x) => x !== null && typeof x === 'object' && !Array.isArray(x));
    if (bothMaps) out[k] = merge(b as Values, v as Values);
    else if (v === null) delete out[k];
    else out[k] = v;
  }
  return out;
}

const ciFiles = readdirSync(join(CHART, 'ci'))
  .filter((f) => f.endsWith('.yaml'))
  .map((f) => join(CHART, 'ci', f))
  .concat(join(ROOT, 'k8s/local/dev-values.yaml'));
const shortName = (file: string) => file.slice(ROOT.length + 1).replace('charts/trove/', '');
const defaults = parse(readFileSync(join(CHART, 'values.yaml'), 'utf8')) as Values;

console.log('-- values.schema.json');
const ajv = new Ajv({ allErrors: true, strict: false });
const validateValues = ajv.compile(JSON.parse(readFileSync(join(CHART, 'values.schema.json'), 'utf8')));
for (const [name, values] of [
  ['values.yaml', defaults],
  ...ciFiles.map((f) => [shortName(f), merge(defaults, parse(readFileSync(f, 'utf8')) as Values)]),
] as [string, Values][]) {
  if (validateValues(values)) console.log(`   ${name}: valid`);
  else problems.push(`${name}: ${ajv.errorsText(validateValues.errors)}`);
}
for (const [why, override] of WRONG_VALUES) {
  if (validateValues(merge(defaults, override))) problems.push(`values.schema.json accepts ${why}`);
}
console.log(`   ${WRONG_VALUES.length} wrong values: ${problems.length === 0 ? 'all rejected' : 'see below'}`);

console.log('\n-- charts/trove/README.md: values tables from values.yaml and values.schema.json');
const made = valuesTables();
problems.push(...made.problems);
const readme = existsSync(README) ? readFileSync(README, 'utf8') : '';
const updated = withTables(readme, made.tables);
if (updated === undefined)
  problems.push('charts/trove/README.md: no <!-- values:begin --> and <!-- values:end --> markers');
else if (updated === readme) console.log('   up to date');
else if (writeBase) {
  writeFileSync(README, updated);
  console.log('   rewrote the values tables');
} else problems.push('charts/trove/README.md: values tables out of date: npm run chart:check -- --write');

async function checkObjects(source: string, objects: KubeObject[], thirdParty?: RegExp): Promise<void> {
  const before = problems.length;
  for (const object of objects) problems.push(...validateObject(object).map((p) => `${source}: ${p}`));
  problems.push(...(await checkConsistency(objects, thirdParty)).map((p) => `${source}: ${p}`));
  const kinds = new Map<string, number>();
  for (const o of objects) kinds.set(o.kind, (kinds.get(o.kind) ?? 0) + 1);
  const summary = [...kinds].map(([k, n]) => `${n} ${k}`).join(', ');
  console.log(`   ${source}: ${summary}${problems.length > before ? ' -- PROBLEMS' : ''}`);
}

let renderer: string | undefined;
console.log('\n-- chart render (helm-render: Go text/template + sprig) and Kubernetes schemas');
const missingGo = rendererMissing();
if (missingGo) skip('chart render', missingGo);
else {
  if (!has('promtool', ['--version']))
    skip('alert rules (promtool check rules)', 'promtool (apt-get install prometheus)');
  const bin = buildRenderer();
  renderer = bin;
  for (const file of ciFiles) {
    for (const apis of [[], [MONITORING]]) {
      const source = `${shortName(file)}${apis.length ? ' +prometheus-operator' : ''}`;
      const result = render(bin, CHART, [file], apis);
      if (!result.ok) {
        problems.push(`${source}: render failed: ${result.error}`);
        continue;
      }
      const objects = parseObjects(result.output, source);
      await checkObjects(source, objects);
      const values = merge(defaults, parse(readFileSync(file, 'utf8')) as Values);
      problems.push(...checkFeatures(values, objects, apis.length > 0).map((p) => `${source}: ${p}`));
      const monitors = objects.filter((o) => o.kind === 'ServiceMonitor').length;
      const annotated = objects.filter(
        (o) => o.kind === 'Deployment' && o.spec?.template?.metadata?.annotations?.['prometheus.io/scrape'] === 'true',
      ).length;
      if (apis.length && (monitors === 0 || annotated > 0)) {
        problems.push(`${source}: expected ServiceMonitors and no prometheus.io annotations`);
      }
      if (!apis.length && (monitors > 0 || annotated === 0)) {
        problems.push(`${source}: expected prometheus.io annotations and no ServiceMonitor`);
      }
    }
  }
  const base = kustomizeBase(bin);
  if (writeBase) {
    writeFileSync(BASE_FILE, base);
    console.log('   wrote k8s/base/trove.yaml');
  } else if (!existsSync(BASE_FILE) || readFileSync(BASE_FILE, 'utf8') !== base) {
    problems.push(
      'k8s/base/trove.yaml is not the chart rendered with k8s/base/values.yaml: npm run chart:check -- --write',
    );
  }
  const bare = render(bin, CHART, []);
  if (bare.ok || !bare.error.includes('needs a database')) {
    problems.push(`values.yaml alone should stop with "needs a database", got: ${bare.error || 'success'}`);
  } else console.log('   values.yaml alone: stops, naming the missing database setting');
  // A Redis password may not become a plain environment value when the chart makes no Secret.
  const plainRedis = join(mkdtempSync(join(tmpdir(), 'trove-values-')), 'values.yaml');
  writeFileSync(
    plainRedis,
    'secrets: { create: false }\nredis: { url: "redis://:pw@redis:6379" }\n' +
      'components: { memoryApi: { existingSecret: m }, errorsApi: { existingSecret: e } }\n',
  );
  const refused = render(bin, CHART, [plainRedis]);
  if (refused.ok || !refused.error.includes('redis.existingSecret')) {
    problems.push(
      `a Redis URL with a password and no Secret should stop naming redis.existingSecret, got: ${refused.error || 'success'}`,
    );
  } else console.log('   a Redis password with secrets.create=false: stops, naming redis.existingSecret');
}

console.log('\n-- kubectl kustomize k8s/overlays/*');
if (!has('kubectl', ['version', '--client'])) skip('kustomize', 'kubectl');
else {
  for (const overlay of readdirSync(join(ROOT, 'k8s/overlays'))) {
    const text = execFileSync('kubectl', ['kustomize', join(ROOT, 'k8s/overlays', overlay)], { encoding: 'utf8' });
    // The dev overlay's own Postgres and Redis are the official images.
    await checkObjects(`k8s/overlays/${overlay}`, parseObjects(text, overlay), /^(postgres|redis):/);
  }
}

console.log('\n-- Tiltfile under a stub of the Tilt API');
if (!has('python3', ['--version'])) skip('Tiltfile', 'python3');
else if (!renderer) skip('Tiltfile', 'the chart renderer (see above)');
else checkTiltfile(renderer);

function checkTiltfile(bin: string): void {
  const run = spawnSync('python3', [join(import.meta.dirname, 'tilt_stub.py'), 'Tiltfile'], {
    encoding: 'utf8',
    cwd: ROOT,
  });
  if (run.status !== 0) {
    problems.push(`Tiltfile: ${run.stderr.trim().split('\n').pop()}`);
    return;
  }
  const tilt = JSON.parse(run.stdout) as TiltRecord;
  const targets = dockerfileTargets();
  const deployed: KubeObject[] = tilt.yaml.flatMap((f) => parseObjects(readFileSync(join(ROOT, f), 'utf8'), f));
  for (const call of tilt.helm) {
    const result = render(
      bin,
      join(ROOT, call.chart),
      call.values.map((v) => join(ROOT, v)),
    );
    if (!result.ok) problems.push(`Tiltfile: helm(${call.chart}) with ${call.values.join(', ')}: ${result.error}`);
    else deployed.push(...parseObjects(result.output, call.chart));
  }
  for (const image of imagesOf(deployed)) {
    if (!imageTarget(image)) continue; // third-party images (Prometheus) are pulled, not built
    const repo = image
      .replace(/:[^/]+$/, '')
      .split('/')
      .pop();
    const build = tilt.builds.find((b) => b.ref === repo);
    if (!build) problems.push(`Tiltfile: builds no ${repo}, which the chart uses`);
    // The `dev` target (sources and tsx, for live update) stands in for any app's image.
    else if (build.target !== imageTarget(image) && build.target !== 'dev')
      problems.push(`Tiltfile: ${repo} is built from target ${build.target}`);
  }
  for (const b of tilt.builds) {
    if (!targets.has(b.target) && b.target !== 'dev')
      problems.push(`Tiltfile: docker_build target ${b.target} is not in the Dockerfile`);
  }
  const workloads = new Set(deployed.filter((o) => ['Deployment', 'Job'].includes(o.kind)).map((o) => o.metadata.name));
  const release = tilt.helm[0]?.name ?? 'trove';
  for (const r of tilt.resources) {
    const dependency = new RegExp(`^${release}-(postgresql|redis-master|qdrant)$`).test(r.workload);
    if (!workloads.has(r.workload) && !dependency)
      problems.push(`Tiltfile: k8s_resource(${r.workload}) names no workload`);
  }
  console.log(`   builds ${tilt.builds.map((b) => `${b.ref} (target ${b.target})`).join(', ')}`);
  console.log(`   deploys ${workloads.size} workloads; resources ${tilt.resources.map((r) => r.workload).join(', ')}`);
  console.log(`   buttons ${tilt.local_resources.map((r) => `${r.name}: ${r.cmd}`).join('; ')}`);
}

interface TiltRecord {
  builds: { ref: string; target: string }[];
  helm: { chart: string; name: string; values: string[] }[];
  resources: { workload: string }[];
  yaml: string[];
  local_resources: { name: string; cmd: string }[];
}

if (problems.length > 0) {
  console.error(`\n${problems.length} problem(s):\n${problems.map((p) => `  - ${p}`).join('\n')}`);
  process.exit(1);
}
if (skipped.length > 0) {
  const list = skipped.map((line) => `  - ${line}`).join('\n');
  if (!allowSkips) {
    console.error(`\nthe checks that ran passed, but ${skipped.length} step(s) were SKIPPED:\n${list}`);
    console.error('install what they need, or pass --allow-skips to accept a partial check');
    process.exit(2);
  }
  console.log(`\nthe checks that ran passed; ${skipped.length} step(s) SKIPPED (--allow-skips):\n${list}`);
} else {
  console.log('\nchart, manifests and Tiltfile: all checks passed');
}
