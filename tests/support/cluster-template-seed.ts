/** Vitest setup file: each test worker starts its in-memory databases from the run's cluster (cluster-template.ts). */
import { readFileSync } from 'node:fs';
import { keepClusterTemplate } from '@trove/data/cluster-template';
import { inject } from 'vitest';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The run's new cluster, written by the global setup (cluster-template.ts). */
    troveClusterTemplate: string;
  }
}

keepClusterTemplate(readFileSync(inject('troveClusterTemplate')));
