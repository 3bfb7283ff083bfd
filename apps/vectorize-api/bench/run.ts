/**
 * `npm run bench -w apps/vectorize-api`: the service's throughput, latency and event-loop figures
 * (bench/throughput.ts); with `-- --remote`, tracing in process against vectorizer-worker
 * processes over gRPC (bench/remote.ts).
 */
await import(process.argv.includes('--remote') ? './remote.ts' : './throughput.ts');
