/** Vitest setup file: each test worker starts its in-memory databases from the run's cluster (cluster-template.ts). */
import { readFileSync } from 'node:fs';
import { keepClusterTemplate } from '@trove/data/cluster-template';
import { inject } from 'vitest';
import './cluster-template.ts';

keepClusterTemplate(readFileSync(inject('troveClusterTemplate')));
