/** Kubernetes objects from YAML text, validated against the Kubernetes schemas (kubernetes-models). */
import * as prometheusOperator from '@kubernetes-models/prometheus-operator/monitoring.coreos.com/v1';
import * as apps from 'kubernetes-models/apps/v1';
import * as autoscaling from 'kubernetes-models/autoscaling/v2';
import * as batch from 'kubernetes-models/batch/v1';
import * as networking from 'kubernetes-models/networking.k8s.io/v1';
import * as policy from 'kubernetes-models/policy/v1';
import * as core from 'kubernetes-models/v1';
import { parseAllDocuments } from 'yaml';

export interface KubeObject {
  apiVersion: string;
  kind: string;
  metadata: { name: string; labels?: Record<string, string>; annotations?: Record<string, string> };
  // biome-ignore lint/suspicious/noExplicitAny: any manifest field
  [field: string]: any;
}

type Model = new (data: unknown) => { validate(): void };
const MODELS: Record<string, Record<string, unknown>> = {
  v1: core,
  'apps/v1': apps,
  'batch/v1': batch,
  'autoscaling/v2': autoscaling,
  'policy/v1': policy,
  'networking.k8s.io/v1': networking,
  'monitoring.coreos.com/v1': prometheusOperator,
};

export function parseObjects(text: string, source: string): KubeObject[] {
  const objects: KubeObject[] = [];
  for (const doc of parseAllDocuments(text)) {
    if (doc.errors.length > 0) throw new Error(`${source}: ${doc.errors[0]?.message}`);
    const value = doc.toJS() as KubeObject | null;
    if (value) objects.push(value);
  }
  return objects;
}

/** Problems of one object against its kind's schema; an unknown kind is a problem too. */
export function validateObject(object: KubeObject): string[] {
  const name = `${object.kind}/${object.metadata?.name}`;
  const Kind = MODELS[object.apiVersion]?.[object.kind] as Model | undefined;
  if (!Kind) return [`${name}: no schema for ${object.apiVersion} ${object.kind}`];
  // kustomize wraps long base64 values over lines, which the API server's decoder skips.
  const data =
    object.kind === 'Secret' && object.data ? { data: mapValues(object.data, (v) => v.replace(/\s/g, '')) } : {};
  try {
    new Kind({ ...object, ...data }).validate();
    return [];
  } catch (err) {
    return [`${name}: ${(err as Error).message.split('\n').slice(0, 6).join(' ')}`];
  }
}

function mapValues(map: Record<string, string>, f: (v: string) => string): Record<string, string> {
  return Object.fromEntries(Object.entries(map).map(([k, v]) => [k, f(v)]));
}

export interface Container {
  owner: string;
  container: { name: string; image: string; args?: string[]; [field: string]: unknown };
  // biome-ignore lint/suspicious/noExplicitAny: pod spec fields
  pod: any;
}

/** Every container of every workload (Deployments and Jobs). */
export function containersOf(objects: KubeObject[]): Container[] {
  const out: Container[] = [];
  for (const object of objects) {
    if (object.kind !== 'Deployment' && object.kind !== 'Job') continue;
    const pod = (object.spec as { template: { spec: { containers: Container['container'][] } } }).template.spec;
    for (const container of pod.containers)
      out.push({ owner: `${object.kind}/${object.metadata.name}`, container, pod });
  }
  return out;
}
