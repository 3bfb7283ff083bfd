import type { Logger } from '@trove/service-kit';
import type { SharedState } from '@trove/shared-state';
import type { AlertEngine } from './alerts/alert-engine.ts';
import type { ErrorsConfig } from './config.ts';
import type { ErrorsDatabase } from './db.ts';
import type { EventWriter } from './ingest/event-writer.ts';
import type { ProjectKeys } from './projects/project-keys.ts';
import type { LiveUpdates } from './realtime/live-updates.ts';

/** What route plugins share: handed to each as its options, so nothing is global. */
export interface AppContext {
  config: ErrorsConfig;
  db: ErrorsDatabase;
  state: SharedState;
  logger: Logger;
  projectKeys: ProjectKeys;
  writer: EventWriter;
  live: LiveUpdates;
  alerts: AlertEngine;
}
