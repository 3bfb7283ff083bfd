import { docContent, docRef, docTitle } from '../../documents/doc-params.ts';
import { parseSlug } from '../../documents/slugs.ts';
import { addRoomDocument, removeRoomDocument, roomDocumentRef, storeRoomDocument } from '../../rooms/room-documents.ts';
import { requireRoom, roomId } from '../../rooms/room-store.ts';
import { roomDocuments } from '../../rooms/room-summary.ts';
import { optionalString, tagList } from '../../schemas/parse.ts';
import { type RoutePlugin, read, write } from '../define.ts';
import { roomDocumentBody, roomDocumentListBody, roomDocumentRefBody, roomDocumentRemoveQuery } from './schemas.ts';

/** Reference documents of a room: store, list, add an existing one, remove a reference. */
export const roomDocumentRoutes: RoutePlugin = async (app, { store }) => {
  app.post(
    '/room/document',
    {
      schema: { body: roomDocumentBody },
      config: write(
        'stores reference content in a room: above 500 characters a document, else a reference memory',
        '{room_id, content, slug?, title?, tags?, author?}',
        '{stored_as, room_id, document | memory}',
      ),
    },
    async ({ body }, reply) => {
      const room = await requireRoom(store, roomId(body.room_id));
      const stored = await storeRoomDocument(store, room, {
        content: docContent(body.content),
        slug: body.slug === undefined ? undefined : parseSlug(body.slug),
        title: docTitle(body.title),
        tags: tagList(body.tags) ?? [],
        author: optionalString(body.author, 'author') ?? null,
      });
      return reply.code(stored.created ? 201 : 200).send(stored.body);
    },
  );

  app.post(
    '/room/document/list',
    {
      schema: { body: roomDocumentListBody },
      config: read('documents referenced from a room', '{room_id}', '{room_id, documents}'),
    },
    async ({ body }) => {
      const room = await requireRoom(store, roomId(body.room_id));
      return { room_id: room.id, documents: await roomDocuments(store, room.id) };
    },
  );

  /** The document a room request names, resolved in the room's namespace by default. */
  const roomDoc = async (body: { room_id?: string | undefined; namespace?: string | undefined }) => {
    const room = await requireRoom(store, roomId(body.room_id));
    const ref = docRef({ ...body, namespace: body.namespace ?? room.namespace });
    return { room, doc: await roomDocumentRef(store, room, ref) };
  };

  app.put(
    '/room/document/add',
    {
      schema: { body: roomDocumentRefBody },
      config: write(
        'references an existing document (id, or slug in the room’s namespace) from a room',
        '{room_id, id | slug, added_by?}',
        '{room_id, document_id, slug, added}',
      ),
    },
    async ({ body }) => {
      const { room, doc } = await roomDoc(body);
      const added = await addRoomDocument(store, room, doc.id, optionalString(body.added_by, 'added_by') ?? null);
      return { room_id: room.id, document_id: doc.id, slug: doc.slug, added };
    },
  );

  app.delete(
    '/room/document/remove',
    {
      schema: { querystring: roomDocumentRemoveQuery, body: roomDocumentRemoveQuery },
      config: write(
        'removes a document reference from a room (the document stays); body or query',
        '{room_id, id | slug}',
        '{room_id, document_id, slug, removed}',
      ),
    },
    async ({ query, body }) => {
      const { room, doc } = await roomDoc(query.room_id !== undefined ? query : body);
      await removeRoomDocument(store, room, doc);
      return { room_id: room.id, document_id: doc.id, slug: doc.slug, removed: true };
    },
  );
};
