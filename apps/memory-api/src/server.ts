import { runService } from '@trove/service-kit';
import { buildMemoryApp } from './app.ts';
import { readConfig } from './config.ts';
import { SERVICE, VERSION } from './meta.ts';

await runService({ service: SERVICE, version: VERSION, readConfig: () => readConfig(), build: buildMemoryApp });
