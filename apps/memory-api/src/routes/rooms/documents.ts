import { badRequest } from '@trove/service-kit';
import type { FastifyPluginAsync } from 'fastify';
import type { MemoryContext } from '../../context.ts';
import { docContent, docRef, docTitle } from '../../documents/doc-params.ts';
import { parseSlug } from '../../documents/slugs.ts';
import { addRoomDocument, roomDocumentRef, storeRoomDocument } from '../../rooms/room-documents.ts';
import { requireRoom, roomId } from '../../rooms/room-store.ts';
import { roomDocuments } from '../../rooms/room-summary.ts';
import { optionalString, tagList } from '../../schemas/parse.ts';
import { roomDocumentBody, roomDocumentListBody, roomDocumentRefBody } from './schemas.ts';

type Body = Record<string, unknown>;

/** Reference documents of a room: store, list, add an existing one, remove a reference. */
export const roomDocumentRoutes: FastifyPluginAsync<MemoryContext> = async (app, { store }) => {
  app.post<{ Body: Body }>(
    '/room/document',
    {
      schema: { body: roomDocumentBody },
      config: {
        access: 'write',
        description: 'stores reference content in a room: above 500 characters a document, else a reference memory',
        requestType: '{room_id, content, slug?, title?, tags?, author?}',
        responseType: '{stored_as, room_id, document | memory}',
      },
    },
    async (request, reply) => {
      const body = request.body;
      const room = await requireRoom(store, roomId(body.room_id));
      const stored = await storeRoomDocument(store, room, {
        content: docContent(body.content),
        slug: body.slug === undefined || body.slug === null ? undefined : parseSlug(body.slug),
        title: docTitle(body.title),
        tags: tagList(body.tags) ?? [],
        author: optionalString(body.author, 'author') ?? null,
      });
      return reply.code(stored.created ? 201 : 200).send(stored.body);
    },
  );

  app.post<{ Body: Body }>(
    '/room/document/list',
    {
      schema: { body: roomDocumentListBody },
      config: {
        access: 'read',
        description: 'documents referenced from a room',
        requestType: '{room_id}',
        responseType: '{room_id, documents}',
      },
    },
    async (request) => {
      const room = await requireRoom(store, roomId(request.body.room_id));
      return { room_id: room.id, documents: await roomDocuments(store, room.id) };
    },
  );

  /** The document a room request names, resolved in the room's namespace by default. */
  const roomDoc = async (body: Body) => {
    const room = await requireRoom(store, roomId(body.room_id));
    const ref = docRef({ ...body, namespace: body.namespace ?? room.namespace });
    return { room, doc: await roomDocumentRef(store, room, ref) };
  };

  app.put<{ Body: Body }>(
    '/room/document/add',
    {
      schema: { body: roomDocumentRefBody },
      config: {
        access: 'write',
        description: 'references an existing document (id, or slug in the room’s namespace) from a room',
        requestType: '{room_id, id | slug, added_by?}',
        responseType: '{room_id, document_id, slug, added}',
      },
    },
    async (request) => {
      const { room, doc } = await roomDoc(request.body);
      const added = await addRoomDocument(
        store,
        room,
        doc.id,
        optionalString(request.body.added_by, 'added_by') ?? null,
      );
      return { room_id: room.id, document_id: doc.id, slug: doc.slug, added };
    },
  );

  app.delete<{ Querystring: Body; Body: Body | undefined }>(
    '/room/document/remove',
    {
      config: {
        access: 'write',
        description: 'removes a document reference from a room (the document stays); body or query',
        requestType: '{room_id, id | slug}',
        responseType: '{room_id, document_id, slug, removed}',
      },
    },
    async (request) => {
      const source = request.query.room_id !== undefined ? request.query : ((request.body as Body | undefined) ?? {});
      const { room, doc } = await roomDoc(source);
      const rows = await store.db.sql.query(
        'DELETE FROM room_documents WHERE room_id = $1 AND document_id = $2::uuid RETURNING 1',
        [room.id, doc.id],
      );
      if (rows.length === 0) throw badRequest(`document ${doc.slug} is not referenced from room ${room.id}`);
      return { room_id: room.id, document_id: doc.id, slug: doc.slug, removed: true };
    },
  );
};
