import type { MemoryContext } from '../../context.ts';
import { docContent, docRef, docTitle, parentRef, sortOrder } from '../../documents/doc-params.ts';
import {
  documentsReferencedBy,
  linkMemoryMentions,
  memoriesReferencing,
  roomsReferencing,
} from '../../documents/doc-refs.ts';
import { type DocSearchMode, searchDocuments } from '../../documents/document-search.ts';
import {
  createDocument,
  DEFAULT_DOC_NAMESPACE,
  type DocumentRow,
  deleteDocument,
  listDocuments,
  requireDocument,
  toDocumentJson,
  updateDocument,
} from '../../documents/document-store.ts';
import { mentionedSlugs, parseSlug } from '../../documents/slugs.ts';
import { invalid } from '../../domain-error.ts';
import { namespace, tagList, uuid } from '../../schemas/parse.ts';
import { type RoutePlugin, read, write } from '../define.ts';
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

export const DOC_LIST_LIMIT = 50;
export const DOC_SEARCH_LIMIT = 10;
export const DEFAULT_DOC_SEARCH_MODE: DocSearchMode = 'hybrid';

const docSummary = (doc: DocumentRow) => ({ id: doc.id, slug: doc.slug, namespace: doc.namespace, title: doc.title });

export const documentRoutes: RoutePlugin<MemoryContext> = async (app, { store, config }) => {
  // References follow content: a new memory mentioning no document costs nothing extra.
  store.contentWritten.push(async (row, { created }) => {
    if (created && mentionedSlugs(row.content).length === 0) return;
    await linkMemoryMentions(store, row);
  });

  app.post(
    '/doc/create',
    {
      schema: { body: docCreateBody },
      config: write('creates a document addressed by slug (unique per namespace)', 'DocCreateRequest', 'Document'),
    },
    async ({ body }, reply) => {
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

  app.post(
    '/doc/get',
    {
      schema: { body: docRefBody },
      config: read('one document by id, or by slug within a namespace', 'DocGetRequest', 'Document'),
    },
    async ({ body }) => toDocumentJson(await requireDocument(store, docRef(body))),
  );

  app.post(
    '/doc/list',
    {
      schema: { body: docListBody },
      config: read(
        'documents in tree order (without content); filters namespace, roots_only, parent',
        'DocListParams',
        'Document[]',
      ),
    },
    async ({ body }) => {
      const ns = namespace(body.namespace);
      const rows = await listDocuments(store, {
        namespace: ns,
        rootsOnly: body.roots_only ?? false,
        parent: parentRef(body.parent, 'parent', ns ?? DEFAULT_DOC_NAMESPACE),
        limit: body.limit ?? DOC_LIST_LIMIT,
        offset: body.offset ?? 0,
      });
      return rows.map((r) => toDocumentJson(r, false));
    },
  );

  app.post(
    '/doc/search',
    {
      schema: { body: docSearchBody },
      config: read(
        'documents by full text, meaning or both (mode fts | semantic | hybrid, default hybrid)',
        'DocSearchRequest',
        'DocumentHit[]',
      ),
    },
    async ({ body }) => {
      const query = body.query.trim();
      if (!query) throw invalid('query must not be empty');
      const hits = await searchDocuments(store, {
        query,
        mode: body.mode ?? DEFAULT_DOC_SEARCH_MODE,
        limit: body.limit ?? DOC_SEARCH_LIMIT,
        filter: { namespace: namespace(body.namespace), tags: tagList(body.tags) },
        vectorFloor: config.VECTOR_MIN_SIMILARITY,
      });
      return hits.map((h) => Object.assign(toDocumentJson(h.row), { score: h.score }));
    },
  );

  app.post(
    '/doc/update',
    {
      schema: { body: docUpdateBody },
      config: write(
        'replaces content (re-embedded), title, tags or parent of a document',
        'DocUpdateRequest',
        'Document',
      ),
    },
    async ({ body }) => {
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

  app.post(
    '/doc/move',
    {
      schema: { body: docMoveBody },
      config: write(
        'moves a document under another parent (null: a root), with an optional sort order',
        'DocMoveRequest',
        'Document',
      ),
    },
    async ({ body }) => {
      const doc = await requireDocument(store, docRef(body));
      const parent = parentRef(body.new_parent, 'new_parent', doc.namespace);
      const order = sortOrder(body.new_sort_order, 'new_sort_order');
      if (parent === undefined && order === undefined) throw invalid('give new_parent, new_sort_order or both');
      return toDocumentJson(await updateDocument(store, doc, { parent, sortOrder: order }));
    },
  );

  app.delete(
    '/doc/delete',
    {
      schema: { querystring: docRefQuery, body: docRefQuery },
      config: write(
        'deletes a document (query or body id, or slug and namespace); its children become roots',
        'query or body id | slug, namespace',
        '{deleted, id, slug, namespace, reparented_children, room_refs, memory_refs}',
      ),
    },
    async ({ query, body }) => {
      const fromQuery = query.id !== undefined || query.slug !== undefined;
      const doc = await requireDocument(store, docRef(fromQuery ? query : body));
      const removed = await deleteDocument(store, doc);
      return { deleted: true, id: doc.id, slug: doc.slug, namespace: doc.namespace, ...removed };
    },
  );

  app.post(
    '/doc/mem-refs',
    {
      schema: { body: docRefsBody },
      config: read(
        'live memories that reference a document ([[slug]] or doc:slug in their content)',
        'DocGetRequest',
        '{document, memories}',
      ),
    },
    async ({ body }) => {
      const doc = await requireDocument(store, docRef(body));
      const take = body.limit ?? DOC_LIST_LIMIT;
      return { document: docSummary(doc), memories: await memoriesReferencing(store, doc.id, take) };
    },
  );

  app.post(
    '/doc/room/list',
    {
      schema: { body: docRefsBody },
      config: read('rooms that reference a document', 'DocGetRequest', '{document, rooms}'),
    },
    async ({ body }) => {
      const doc = await requireDocument(store, docRef(body));
      return { document: docSummary(doc), rooms: await roomsReferencing(store, doc.id) };
    },
  );

  app.post(
    '/memory/doc-refs',
    {
      schema: { body: memoryDocRefsBody },
      config: read(
        'documents a memory references ([[slug]] or doc:slug in its content)',
        '{id}',
        '{memory_id, documents}',
      ),
    },
    async ({ body }) => {
      const id = uuid(body.id);
      return { memory_id: id, documents: await documentsReferencedBy(store, id) };
    },
  );
};
