/**
 * What the manifests ask of the images and apps, checked against the sources: every image is a
 * Dockerfile target, every environment variable a container gets is in its app's config schema
 * (apps/<app>/src/config.ts), ports agree with PORT / GRPC_PORT and the Dockerfile's EXPOSE,
 * and probes hit the health paths the service kit serves.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PROBE_PATHS } from '@trove/service-kit';
import { type Container, containersOf, type KubeObject } from './kube-objects.ts';

export const ROOT = join(import.meta.dirname, '../..');

/** Ports a target EXPOSEs: HTTP first, then gRPC for a backend (`EXPOSE 8770 50051`). */
export interface ExposedPorts {
  http: number;
  grpc?: number;
}

/** Dockerfile targets that build a process image, with the ports each EXPOSEs. */
export function dockerfileTargets(dockerfile = join(ROOT, 'Dockerfile')): Map<string, ExposedPorts | undefined> {
  const targets = new Map<string, ExposedPorts | undefined>();
  let current: string | undefined;
  for (const line of readFileSync(dockerfile, 'utf8').split('\n')) {
    const from = /^FROM \S+ AS ([a-z-]+)$/.exec(line);
    if (from) {
      current = from[1];
      targets.set(current as string, undefined);
    }
    const expose = /^EXPOSE (\d+)(?: (\d+))?/.exec(line);
    if (expose && current) {
      targets.set(current, { http: Number(expose[1]), ...(expose[2] ? { grpc: Number(expose[2]) } : {}) });
    }
  }
  for (const internal of ['base', 'manifests', 'build', 'glove', 'os', 'runtime', 'dev']) targets.delete(internal);
  return targets;
}

// Read by the container runtime, not the app: the NVIDIA runtime mounts the driver's libraries by these.
const RUNTIME_VARIABLES = new Set(['NVIDIA_DRIVER_CAPABILITIES', 'NVIDIA_VISIBLE_DEVICES']);

const schemaCache = new Map<string, Set<string>>();
/** The variable names an app reads, from its config schema. */
export async function configVariables(app: string): Promise<Set<string>> {
  let names = schemaCache.get(app);
  if (!names) {
    const mod = (await import(join(ROOT, 'apps', app, 'src/config.ts'))) as { configSchema: Record<string, unknown> };
    names = new Set(Object.keys(mod.configSchema));
    schemaCache.set(app, names);
  }
  return names;
}

/** The Dockerfile target an image reference names (…/trove-<target>:<tag>). */
export function imageTarget(image: string): string | undefined {
  return /(?:^|\/)trove-([a-z-]+)(?::[^/]+)?$/.exec(image)?.[1];
}

function secretKeys(objects: KubeObject[], name: string): string[] {
  const secret = objects.find((o) => o.kind === 'Secret' && o.metadata.name === name);
  return Object.keys({ ...(secret?.stringData ?? {}), ...(secret?.data ?? {}) });
}

async function checkContainer(objects: KubeObject[], { owner, container }: Container): Promise<string[]> {
  const where = `${owner} container ${container.name}`;
  const problems: string[] = [];
  const targets = dockerfileTargets();
  const target = imageTarget(container.image);
  if (!target || !targets.has(target)) {
    return [
      `${where}: image ${container.image} is not built by any Dockerfile target (${[...targets.keys()].join(', ')})`,
    ];
  }
  // The `helm test` pod runs the chart's own script in the migrate image: its variables are the script's.
  if (target === 'migrate' && (container.command as string[] | undefined)?.includes('/tests/helm-test.mjs')) return [];
  const app = target === 'migrate' ? container.args?.[0] : target;
  if (!app) return [`${where}: the migrate image needs the app name as its argument`];
  const known = await configVariables(app);
  const env = (container.env ?? []) as { name: string; value?: string }[];
  const fromSecrets = ((container.envFrom ?? []) as { secretRef?: { name: string } }[]).flatMap((ref) =>
    ref.secretRef ? secretKeys(objects, ref.secretRef.name) : [],
  );
  for (const name of [...env.map((e) => e.name), ...fromSecrets]) {
    if (!known.has(name) && !RUNTIME_VARIABLES.has(name))
      problems.push(`${where}: sets ${name}, which apps/${app}/src/config.ts does not read`);
  }
  if (target === 'migrate') return problems;
  const value = (name: string) => env.find((e) => e.name === name)?.value;
  const ports = (container.ports ?? []) as { name: string; containerPort: number }[];
  const http = ports.find((p) => p.name.endsWith('http'))?.containerPort;
  if (http === undefined || String(http) !== value('PORT')) {
    problems.push(`${where}: PORT=${value('PORT')} but the http containerPort is ${http}`);
  }
  const grpc = ports.find((p) => p.name.endsWith('grpc'))?.containerPort;
  if (grpc !== undefined && String(grpc) !== value('GRPC_PORT')) {
    problems.push(`${where}: GRPC_PORT=${value('GRPC_PORT')} but the grpc containerPort is ${grpc}`);
  }
  const exposed = targets.get(target);
  if (exposed !== undefined && exposed.http !== http) {
    problems.push(`${where}: the image EXPOSEs ${exposed.http} but the chart serves HTTP on ${http}`);
  }
  if (exposed !== undefined && exposed.grpc !== grpc) {
    problems.push(`${where}: the image EXPOSEs gRPC port ${exposed.grpc} but the chart serves gRPC on ${grpc}`);
  }
  for (const probe of ['startupProbe', 'livenessProbe', 'readinessProbe']) {
    const get = (container[probe] as { httpGet?: { path: string; port: number | string } } | undefined)?.httpGet;
    if (!get) continue;
    if (!PROBE_PATHS.test(get.path))
      problems.push(`${where}: ${probe} path ${get.path} is not served by the service kit`);
    if (String(get.port) !== String(http) && get.port !== 'http') {
      problems.push(`${where}: ${probe} port ${get.port} is not the HTTP port ${http}`);
    }
  }
  return problems;
}

/** Problems of every container in the objects (empty when consistent). */
export async function checkConsistency(objects: KubeObject[], thirdParty: RegExp = /^$/): Promise<string[]> {
  const problems: string[] = [];
  for (const c of containersOf(objects)) {
    if (!thirdParty.test(c.container.image)) problems.push(...(await checkContainer(objects, c)));
  }
  return problems;
}

/** Every image the objects name. */
export function imagesOf(objects: KubeObject[]): Set<string> {
  return new Set(containersOf(objects).map((c) => c.container.image));
}
