/**
 * k8s/base/trove.yaml: the chart rendered with k8s/base/values.yaml, minus what only Helm uses
 * (hook annotations, Helm's labels), so `kubectl apply -k` deploys what `helm install` does.
 */
import { join } from 'node:path';
import { stringify } from 'yaml';
import { ROOT } from './consistency.ts';
import { parseObjects } from './kube-objects.ts';
import { render } from './render.ts';

export const BASE_FILE = join(ROOT, 'k8s/base/trove.yaml');
const HEADER = `# Generated from charts/trove with k8s/base/values.yaml by \`npm run chart:check -- --write\`; do not edit.\n`;

function strip(map: Record<string, string> | undefined, keys: RegExp): Record<string, string> | undefined {
  if (!map) return map;
  const kept = Object.fromEntries(Object.entries(map).filter(([k]) => !keys.test(k)));
  return Object.keys(kept).length > 0 ? kept : undefined;
}

export function kustomizeBase(renderer: string): string {
  const result = render(renderer, join(ROOT, 'charts/trove'), [join(ROOT, 'k8s/base/values.yaml')]);
  if (!result.ok) throw new Error(`k8s/base: chart render failed: ${result.error}`);
  const docs = parseObjects(result.output, 'k8s/base').map((object) => {
    const metadata = { ...object.metadata };
    metadata.labels = strip(metadata.labels, /^(helm\.sh\/chart|app\.kubernetes\.io\/managed-by)$/);
    metadata.annotations = strip(metadata.annotations, /^helm\.sh\//);
    if (!metadata.labels) delete metadata.labels;
    if (!metadata.annotations) delete metadata.annotations;
    const template = object.spec?.template as { metadata?: { labels?: Record<string, string> } } | undefined;
    if (template?.metadata?.labels) {
      template.metadata.labels = strip(template.metadata.labels, /^(helm\.sh\/chart|app\.kubernetes\.io\/managed-by)$/);
    }
    return stringify({ ...object, metadata }, { lineWidth: 0 });
  });
  return HEADER + docs.map((d) => `---\n${d}`).join('');
}
