import { repairIndex, verifyIndex } from '../../memories/index-health.ts';
import { noFields, repairBody } from '../../schemas/requests.ts';
import { type RoutePlugin, read, write } from '../define.ts';

/** The vector index against the stored rows: a report, and a rebuild. */
export const indexHealthRoutes: RoutePlugin = async (app, { store }) => {
  app.post(
    '/verify',
    {
      schema: { body: noFields },
      config: read('compares the vector index with stored rows; mismatch flag', 'none', 'VerifyReport'),
    },
    async () => verifyIndex(store),
  );
  app.post(
    '/repair',
    {
      schema: { body: repairBody },
      config: write(
        'rebuilds the vector index from stored embeddings; with {"reembed": true} first embeds again, with the configured model, every memory and document whose vector is missing or another model made (in committed batches)',
        'RepairRequest {reembed?}',
        'RepairReport',
      ),
    },
    async (request) => repairIndex(store, request.body.reembed ?? false),
  );
};
