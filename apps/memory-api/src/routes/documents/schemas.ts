import { Type } from 'typebox';
import { DOC_SEARCH_MODES } from '../../documents/document-search.ts';
import { Limit, Namespace, Offset, OptBool, OptInt, OptText, Strict, Tags } from '../../schemas/fields.ts';

/** Request schemas of the document routes. */
const opt = Type.Optional;
/** A parent given as a document id or slug; null means "no parent". */
const Parent = opt(Type.Union([Type.String(), Type.Null()], { description: 'document id or slug; null: none' }));
const ref = { id: OptText('document id (a UUID)'), slug: OptText(), namespace: Namespace };

export const docCreateBody = Strict({
  slug: Type.String(),
  content: Type.String(),
  title: OptText(),
  tags: Tags,
  parent: Parent,
  namespace: Namespace,
  sort_order: OptInt(),
});

export const docRefBody = Strict(ref);
export const docRefQuery = Strict(ref);

export const docListBody = Strict({
  namespace: Namespace,
  limit: Limit(1000),
  offset: Offset,
  roots_only: OptBool(),
  parent: Parent,
});
export const docSearchBody = Strict({
  query: Type.String({ maxLength: 10_000 }),
  mode: opt(Type.Enum([...DOC_SEARCH_MODES], { description: 'search mode, default hybrid' })),
  namespace: Namespace,
  limit: Limit(100),
  tags: Tags,
});
export const docUpdateBody = Strict({ ...ref, content: OptText(), title: OptText(), tags: Tags, parent: Parent });
export const docMoveBody = Strict({ ...ref, new_parent: Parent, new_sort_order: OptInt() });
export const docRefsBody = Strict({ ...ref, limit: Limit(1000) });
export const memoryDocRefsBody = Strict({ id: Type.String() });
