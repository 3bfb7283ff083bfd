import cookie from '@fastify/cookie';
import websocket from '@fastify/websocket';
import { createServer, type Logger, serviceKit } from '@trove/service-kit';
import { createSharedState, type SharedState, serviceKeyPrefix, sharedStateChecks } from '@trove/shared-state';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { AlertEngine } from './alerts/alert-engine.ts';
import type { ErrorsConfig } from './config.ts';
import type { AppContext } from './context.ts';
import { type ErrorsDatabase, openErrorsDatabase } from './db.ts';
import { EventWriter } from './ingest/event-writer.ts';
import { SERVICE } from './meta.ts';
import { ProjectKeys } from './projects/project-keys.ts';
import { closeGoingAway } from './realtime/close-codes.ts';
import { LiveUpdates } from './realtime/live-updates.ts';
import { authRoutes } from './routes/auth/index.ts';
import { docsRoutes, registerOpenApi } from './routes/docs/index.ts';
import { healthRoutes } from './routes/health/index.ts';
import { ingestRoutes } from './routes/ingest/index.ts';
import { issueRoutes } from './routes/issues/index.ts';
import { releaseRoutes } from './routes/issues/releases.ts';
import { projectRoutes } from './routes/projects/index.ts';
import { ruleRoutes } from './routes/rules/index.ts';
import { ruleEditRoutes } from './routes/rules/rule-edits.ts';
import { setupRoutes } from './routes/setup/index.ts';
import { webRoutes } from './routes/web/index.ts';
import { wsRoutes } from './routes/ws/index.ts';

export interface ErrorsAppOptions {
  config: ErrorsConfig;
  db: ErrorsDatabase;
  state: SharedState;
}

declare module 'fastify' {
  interface FastifyInstance {
    errors: AppContext;
  }
}

/** errors-api as a Fastify plugin: the service kit, then the routes of the spec. */
export const errorsApp = fp<ErrorsAppOptions>(
  async (app, { config, db, state }) => {
    await registerOpenApi(app);
    await app.register(serviceKit, {
      service: SERVICE,
      checks: { database: () => db.ping() },
      // Without Redis ingest still takes events (rate limits per replica) and the rest serves on,
      // so an outage is reported but never takes every replica out of the load balancer.
      softChecks: sharedStateChecks(state),
      // A Redis that stops answering is skipped at once (circuit open) instead of costing each request its timeout.
      circuits: state.circuits,
      // A lost or refused database connection is answered 503 with Retry-After, naming the database.
      classifyFailure: db.unavailable,
      // An embedded database that stopped answering fails liveness, so the orchestrator restarts it.
      liveness: { database: () => db.alive() },
    });
    await app.register(cookie);
    await app.register(websocket, { options: { maxPayload: 64 * 1024 }, preClose: closeGoingAway });

    const logger = app.log as Logger;
    const ctx: AppContext = {
      config,
      db,
      state,
      logger,
      projectKeys: new ProjectKeys(db, state, logger),
      writer: new EventWriter(db, config.INGEST_BATCH_MAX, logger),
      live: new LiveUpdates(state, logger),
      alerts: new AlertEngine(db, config, logger, state),
    };
    ctx.writer.onIssueChanges(ctx.live.onIssueChanges);
    ctx.writer.onIssueChanges(ctx.alerts.onIssueChanges);
    await ctx.projectKeys.start();
    await ctx.alerts.start();
    await ctx.live.start();
    app.decorate('errors', ctx);
    app.addHook('onClose', async () => {
      await ctx.writer.flush();
      await ctx.alerts.stop();
      await Promise.allSettled([ctx.live.stop(), ctx.projectKeys.stop()]);
    });

    await app.register(healthRoutes);
    await app.register(docsRoutes);
    await app.register(setupRoutes, ctx);
    await app.register(authRoutes, ctx);
    await app.register(projectRoutes, ctx);
    await app.register(issueRoutes, ctx);
    await app.register(releaseRoutes, ctx);
    await app.register(ruleRoutes, ctx);
    await app.register(ruleEditRoutes, ctx);
    await app.register(wsRoutes, ctx);
    await app.register(ingestRoutes, ctx);
    await app.register(webRoutes, ctx);
  },
  { name: SERVICE },
);

/** Opens the app's dependencies and returns a ready server; closing the server closes them. */
export async function buildErrorsApp(config: ErrorsConfig, logger: Logger): Promise<FastifyInstance> {
  const state = createSharedState({
    redisUrl: config.REDIS_URL,
    keyPrefix: serviceKeyPrefix(config, 'errors'),
    logger,
  });
  const db = await openErrorsDatabase(config, config.MIGRATE_ON_START, logger).catch(async (err) => {
    await state.close();
    throw err;
  });
  const server = createServer({ logger, closeWith: [db, state], connections: config });
  await server.register(errorsApp, { config, db, state });
  return server;
}
