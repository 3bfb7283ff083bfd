/** Values the chart's schema must reject: [what is wrong, override merged into values.yaml]. */
export const WRONG_VALUES: [string, Record<string, unknown>][] = [
  ['a port that is not a number', { components: { memoryApi: { port: 'http' } } }],
  ['a port above 65535', { components: { errorsApi: { port: 70000 } } }],
  ['an unknown component', { components: { searchApi: { enabled: true } } }],
  ['an unknown field of a component', { components: { memoryApi: { replica: 3 } } }],
  ['an unknown top-level value', { replicaCount: 2 }],
  ['an image pull policy Kubernetes does not know', { image: { pullPolicy: 'Sometimes' } }],
  ['negative replicas', { components: { vectorizeApi: { replicas: -1 } } }],
  ['a lower-case environment variable', { components: { memoryApi: { env: { log_level: 'info' } } } }],
  ['a Redis URL of another scheme', { redis: { url: 'http://redis:6379' } }],
  ['the bundled Postgres without a password', { postgresql: { enabled: true } }],
  ['a sidecar without sidecarOf', { components: { vectorizeApi: { mode: 'sidecar', grpcPort: 50051 } } }],
  ['a malformed memory quantity', { components: { memoryApi: { resources: { limits: { memory: 'lots' } } } } }],
  ['a CPU target over 100%', { components: { errorsApi: { autoscaling: { targetCPUUtilizationPercentage: 150 } } } }],
];
