import { badRequest, notFound } from '@trove/service-kit';
import type { FastifyPluginAsync } from 'fastify';
import type { MemoryContext } from '../../context.ts';
import { docContent, docRef, docTitle, parentRef, sortOrder } from '../../documents/doc-params.ts';
import { linkMemoryMentions } from '../../documents/doc-refs.ts';
import { DOC_SEARCH_MODES, type DocSearchMode, searchDocuments } from '../../documents/document-search.ts';
import {
  createDocument,
  DEFAULT_DOC_NAMESPACE,
  DOC_SELECT,
  type DocumentRow,
  deleteDocument,
  listDocuments,
  requireDocument,
  toDocumentJson,
  updateDocument,
} from '../../documents/document-store.ts';
import { mentionedSlugs, parseSlug } from '../../documents/slugs.ts';
import { toMemoryJson } from '../../memories/record.ts';
import { fromSqlRow, MEMORY_SELECT } from '../../memories/sql-rows.ts';
import { bool, limit, namespace, tagList, uuid } from '../../schemas/parse.ts';
import {
  docCreateBody,
  docListBody,
  docMoveBody,
  docRefBody,
  docRefQuery,
  docRefsBody,
  docSearchBody,
  docUpdateBody,
  memoryDocRefsBody,
} from './schemas.ts';

type Body = Record<string, unknown>;

export const DOC_LIST_LIMIT = { default: 50, max: 1000 };
export const DOC_SEARCH_LIMIT = { default: 10, max: 100 };
export const DEFAULT_DOC_SEARCH_MODE: DocSearchMode = 'hybrid';

export const documentRoutes: FastifyPluginAsync<MemoryContext> = async (app, { store, config }) => {
  // References follow content: a new memory mentioning no document costs nothing extra.
  store.contentWritten.push(async (row, { created }) => {
    if (created && mentionedSlugs(row.content).length === 0) return;
    await linkMemoryMentions(store, row);
  });

  app.post<{ Body: Body }>(
    '/doc/create',
    {
      schema: { body: docCreateBody },
      config: {
        access: 'write',
        description: 'creates a document addressed by slug (unique per namespace)',
        requestType: 'DocCreateRequest',
        responseType: 'Document',
      },
    },
    async (request, reply) => {
      const body = request.body;
      const ns = namespace(body.namespace) ?? DEFAULT_DOC_NAMESPACE;
      const row = await createDocument(store, {
        slug: parseSlug(body.slug),
        namespace: ns,
        title: docTitle(body.title) ?? '',
        content: docContent(body.content),
        tags: tagList(body.tags) ?? [],
        parent: parentRef(body.parent, 'parent', ns) ?? undefined,
        sortOrder: sortOrder(body.sort_order, 'sort_order'),
      });
      return reply.code(201).send(toDocumentJson(row));
    },
  );

  app.post<{ Body: Body }>(
    '/doc/get',
    {
      schema: { body: docRefBody },
      config: {
        access: 'read',
        description: 'one document by id, or by slug within a namespace',
        requestType: 'DocGetRequest',
        responseType: 'Document',
      },
    },
    async (request) => toDocumentJson(await requireDocument(store, docRef(request.body))),
  );

  app.post<{ Body: Body }>(
    '/doc/list',
    {
      schema: { body: docListBody },
      config: {
        access: 'read',
        description: 'documents in tree order (without content); filters namespace, roots_only, parent',
        requestType: 'DocListParams',
        responseType: 'Document[]',
      },
    },
    async (request) => {
      const body = request.body ?? {};
      const ns = namespace(body.namespace);
      let parentId: string | undefined;
      const parent = parentRef(body.parent, 'parent', ns ?? DEFAULT_DOC_NAMESPACE);
      if (parent) parentId = (await requireDocument(store, parent)).id;
      const rootsOnly = bool(body.roots_only, 'roots_only') ?? false;
      if (rootsOnly && parentId) throw badRequest('roots_only and parent cannot be combined');
      const rows = await listDocuments(store, {
        namespace: ns,
        rootsOnly,
        parentId,
        limit: limit(body.limit, DOC_LIST_LIMIT.default, DOC_LIST_LIMIT.max),
        offset: (body.offset as number | undefined) ?? 0,
      });
      return rows.map((r) => toDocumentJson(r, false));
    },
  );

  app.post<{ Body: Body & { query: string } }>(
    '/doc/search',
    {
      schema: { body: docSearchBody },
      config: {
        access: 'read',
        description: 'documents by full text, meaning or both (mode fts | semantic | hybrid, default hybrid)',
        requestType: 'DocSearchRequest',
        responseType: 'DocumentHit[]',
      },
    },
    async (request) => {
      const body = request.body;
      const mode = (body.mode ?? DEFAULT_DOC_SEARCH_MODE) as DocSearchMode;
      if (!DOC_SEARCH_MODES.includes(mode)) {
        throw badRequest(`unknown mode ${JSON.stringify(body.mode)}; valid modes: ${DOC_SEARCH_MODES.join(', ')}`);
      }
      const query = body.query.trim();
      if (!query) throw badRequest('query must not be empty');
      const hits = await searchDocuments(store, {
        query,
        mode,
        limit: limit(body.limit, DOC_SEARCH_LIMIT.default, DOC_SEARCH_LIMIT.max),
        filter: { namespace: namespace(body.namespace), tags: tagList(body.tags) },
        vectorFloor: config.VECTOR_MIN_SIMILARITY,
      });
      return hits.map((h) => ({ ...toDocumentJson(h.row), score: h.score }));
    },
  );

  app.post<{ Body: Body }>(
    '/doc/update',
    {
      schema: { body: docUpdateBody },
      config: {
        access: 'write',
        description: 'replaces content (re-embedded), title, tags or parent of a document',
        requestType: 'DocUpdateRequest',
        responseType: 'Document',
      },
    },
    async (request) => {
      const body = request.body;
      const doc = await requireDocument(store, docRef(body));
      const updated = await updateDocument(store, doc, {
        content: body.content === undefined ? undefined : docContent(body.content),
        title: docTitle(body.title),
        tags: tagList(body.tags),
        parent: parentRef(body.parent, 'parent', doc.namespace),
      });
      return toDocumentJson(updated);
    },
  );

  app.post<{ Body: Body }>(
    '/doc/move',
    {
      schema: { body: docMoveBody },
      config: {
        access: 'write',
        description: 'moves a document under another parent (null: a root), with an optional sort order',
        requestType: 'DocMoveRequest',
        responseType: 'Document',
      },
    },
    async (request) => {
      const body = request.body;
      const doc = await requireDocument(store, docRef(body));
      const parent = parentRef(body.new_parent, 'new_parent', doc.namespace);
      const order = sortOrder(body.new_sort_order, 'new_sort_order');
      if (parent === undefined && order === undefined) throw badRequest('give new_parent, new_sort_order or both');
      return toDocumentJson(await updateDocument(store, doc, { parent, sortOrder: order }));
    },
  );

  app.delete<{ Querystring: Body; Body: Body | undefined }>(
    '/doc/delete',
    {
      schema: { querystring: docRefQuery },
      config: {
        access: 'write',
        description: 'deletes a document (query or body id, or slug and namespace); its children become roots',
        requestType: 'query or body id | slug, namespace',
        responseType: '{deleted, id, slug, namespace, reparented_children, room_refs, memory_refs}',
      },
    },
    async (request) => {
      const fromQuery = request.query.id !== undefined || request.query.slug !== undefined;
      const doc = await requireDocument(store, docRef(fromQuery ? request.query : (request.body ?? {})));
      const removed = await deleteDocument(store, doc);
      return { deleted: true, id: doc.id, slug: doc.slug, namespace: doc.namespace, ...removed };
    },
  );

  app.post<{ Body: Body }>(
    '/doc/mem-refs',
    {
      schema: { body: docRefsBody },
      config: {
        access: 'read',
        description: 'live memories that reference a document ([[slug]] or doc:slug in their content)',
        requestType: 'DocGetRequest',
        responseType: '{document, memories}',
      },
    },
    async (request) => {
      const doc = await requireDocument(store, docRef(request.body));
      const rows = await store.db.sql.query(
        `SELECT ${MEMORY_SELECT} FROM memories WHERE status = 'active'
            AND id IN (SELECT memory_id FROM memory_doc_refs WHERE document_id = $1::uuid)
          ORDER BY created_at, id LIMIT $2`,
        [doc.id, limit(request.body.limit, DOC_LIST_LIMIT.default, DOC_LIST_LIMIT.max)],
      );
      return { document: docSummary(doc), memories: rows.map((r) => toMemoryJson(fromSqlRow(r))) };
    },
  );

  app.post<{ Body: Body }>(
    '/doc/room/list',
    {
      schema: { body: docRefsBody },
      config: {
        access: 'read',
        description: 'rooms that reference a document',
        requestType: 'DocGetRequest',
        responseType: '{document, rooms}',
      },
    },
    async (request) => {
      const doc = await requireDocument(store, docRef(request.body));
      const rooms = await store.db.sql.query<Record<string, unknown>>(
        `SELECT r.id AS room_id, r.title, r.namespace, rd.added_by, rd.added_at
           FROM room_documents rd JOIN rooms r ON r.id = rd.room_id
          WHERE rd.document_id = $1::uuid ORDER BY r.id`,
        [doc.id],
      );
      return {
        document: docSummary(doc),
        rooms: rooms.map((r) => ({ ...r, added_at: new Date(r.added_at as string).toISOString() })),
      };
    },
  );

  app.post<{ Body: { id: string } }>(
    '/memory/doc-refs',
    {
      schema: { body: memoryDocRefsBody },
      config: {
        access: 'read',
        description: 'documents a memory references ([[slug]] or doc:slug in its content)',
        requestType: '{id}',
        responseType: '{memory_id, documents}',
      },
    },
    async (request) => {
      const id = uuid(request.body.id);
      if ((await store.prisma.memory.count({ where: { id } })) === 0) throw notFound(`no memory with id ${id}`);
      const docs = await store.db.sql.query<DocumentRow>(
        `SELECT ${DOC_SELECT} FROM documents d
          WHERE d.id IN (SELECT document_id FROM memory_doc_refs WHERE memory_id = $1::uuid) ORDER BY d.slug`,
        [id],
      );
      return { memory_id: id, documents: docs.map((d) => toDocumentJson(d, false)) };
    },
  );
};

const docSummary = (doc: DocumentRow) => ({ id: doc.id, slug: doc.slug, namespace: doc.namespace, title: doc.title });
