import { runService } from '@trove/service-kit';
import { buildErrorsApp } from './app.ts';
import { readConfig } from './config.ts';
import { SERVICE, VERSION } from './meta.ts';

await runService({ service: SERVICE, version: VERSION, readConfig: () => readConfig(), build: buildErrorsApp });
