-- CreateTable
CREATE TABLE "memory_backlinks" (
    "memory_id" UUID NOT NULL,
    "referrer_id" UUID NOT NULL,
    "edge_type" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "memory_backlinks_pkey" PRIMARY KEY ("memory_id","referrer_id","edge_type")
);

-- CreateTable
CREATE TABLE "rooms" (
    "id" TEXT NOT NULL,
    "title" TEXT NOT NULL,
    "description" TEXT NOT NULL DEFAULT '',
    "namespace" TEXT NOT NULL DEFAULT 'default',
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "rooms_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "room_members" (
    "room_id" TEXT NOT NULL,
    "memory_id" UUID NOT NULL,
    "author" TEXT,
    "role" TEXT NOT NULL DEFAULT 'participant',
    "joined_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "room_members_pkey" PRIMARY KEY ("room_id","memory_id")
);

-- CreateTable
CREATE TABLE "documents" (
    "id" UUID NOT NULL,
    "slug" TEXT NOT NULL,
    "namespace" TEXT NOT NULL DEFAULT 'default',
    "title" TEXT NOT NULL DEFAULT '',
    "content" TEXT NOT NULL,
    "tags" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "parent_id" UUID,
    "sort_order" INTEGER NOT NULL DEFAULT 0,
    "embedding" BYTEA,
    "embedding_model" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "search_vector" tsvector,

    CONSTRAINT "documents_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "room_documents" (
    "room_id" TEXT NOT NULL,
    "document_id" UUID NOT NULL,
    "added_by" TEXT,
    "added_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "room_documents_pkey" PRIMARY KEY ("room_id","document_id")
);

-- CreateTable
CREATE TABLE "memory_doc_refs" (
    "memory_id" UUID NOT NULL,
    "document_id" UUID NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "memory_doc_refs_pkey" PRIMARY KEY ("memory_id","document_id")
);

-- CreateTable
CREATE TABLE "graph_nodes" (
    "id" UUID NOT NULL,
    "namespace" TEXT NOT NULL DEFAULT 'default',
    "label" TEXT NOT NULL,
    "kind" TEXT NOT NULL DEFAULT 'entity',
    "memory_id" UUID,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "graph_nodes_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "graph_edges" (
    "id" UUID NOT NULL,
    "source_id" UUID NOT NULL,
    "target_id" UUID NOT NULL,
    "edge_type" TEXT NOT NULL DEFAULT 'related_to',
    "weight" DOUBLE PRECISION NOT NULL DEFAULT 1,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "graph_edges_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "memory_backlinks_referrer_id_idx" ON "memory_backlinks"("referrer_id");

-- CreateIndex
CREATE INDEX "rooms_namespace_idx" ON "rooms"("namespace");

-- CreateIndex
CREATE INDEX "room_members_memory_id_idx" ON "room_members"("memory_id");

-- CreateIndex
CREATE INDEX "room_members_room_id_joined_at_idx" ON "room_members"("room_id", "joined_at");

-- CreateIndex
CREATE INDEX "documents_parent_id_sort_order_idx" ON "documents"("parent_id", "sort_order");

-- CreateIndex
CREATE INDEX "documents_search_vector_idx" ON "documents" USING GIN ("search_vector");

-- CreateIndex
CREATE UNIQUE INDEX "documents_namespace_slug_key" ON "documents"("namespace", "slug");

-- CreateIndex
CREATE INDEX "room_documents_document_id_idx" ON "room_documents"("document_id");

-- CreateIndex
CREATE INDEX "memory_doc_refs_document_id_idx" ON "memory_doc_refs"("document_id");

-- CreateIndex
CREATE UNIQUE INDEX "graph_nodes_memory_id_key" ON "graph_nodes"("memory_id");

-- CreateIndex
CREATE INDEX "graph_nodes_namespace_label_idx" ON "graph_nodes"("namespace", "label");

-- CreateIndex
CREATE INDEX "graph_edges_target_id_idx" ON "graph_edges"("target_id");

-- CreateIndex
CREATE UNIQUE INDEX "graph_edges_source_id_target_id_edge_type_key" ON "graph_edges"("source_id", "target_id", "edge_type");

-- AddForeignKey
ALTER TABLE "memory_backlinks" ADD CONSTRAINT "memory_backlinks_memory_id_fkey" FOREIGN KEY ("memory_id") REFERENCES "memories"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "memory_backlinks" ADD CONSTRAINT "memory_backlinks_referrer_id_fkey" FOREIGN KEY ("referrer_id") REFERENCES "memories"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "room_members" ADD CONSTRAINT "room_members_room_id_fkey" FOREIGN KEY ("room_id") REFERENCES "rooms"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "room_members" ADD CONSTRAINT "room_members_memory_id_fkey" FOREIGN KEY ("memory_id") REFERENCES "memories"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "documents" ADD CONSTRAINT "documents_parent_id_fkey" FOREIGN KEY ("parent_id") REFERENCES "documents"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "room_documents" ADD CONSTRAINT "room_documents_room_id_fkey" FOREIGN KEY ("room_id") REFERENCES "rooms"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "room_documents" ADD CONSTRAINT "room_documents_document_id_fkey" FOREIGN KEY ("document_id") REFERENCES "documents"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "memory_doc_refs" ADD CONSTRAINT "memory_doc_refs_memory_id_fkey" FOREIGN KEY ("memory_id") REFERENCES "memories"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "memory_doc_refs" ADD CONSTRAINT "memory_doc_refs_document_id_fkey" FOREIGN KEY ("document_id") REFERENCES "documents"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "graph_nodes" ADD CONSTRAINT "graph_nodes_memory_id_fkey" FOREIGN KEY ("memory_id") REFERENCES "memories"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "graph_edges" ADD CONSTRAINT "graph_edges_source_id_fkey" FOREIGN KEY ("source_id") REFERENCES "graph_nodes"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "graph_edges" ADD CONSTRAINT "graph_edges_target_id_fkey" FOREIGN KEY ("target_id") REFERENCES "graph_nodes"("id") ON DELETE CASCADE ON UPDATE CASCADE;


-- Full text over title (weight A), content (weight B) and tags (weight C), kept by a trigger for
-- the same reason as memories' search_vector.
CREATE FUNCTION "documents_search_vector_update"() RETURNS trigger AS $$
BEGIN
  NEW."search_vector" :=
    setweight(to_tsvector('english', coalesce(NEW."title", '')), 'A') ||
    setweight(to_tsvector('english', coalesce(NEW."content", '')), 'B') ||
    setweight(to_tsvector('english', coalesce(array_to_string(NEW."tags", ' '), '')), 'C');
  RETURN NEW;
END
$$ LANGUAGE plpgsql;

CREATE TRIGGER "documents_search_vector_trigger"
  BEFORE INSERT OR UPDATE OF "title", "content", "tags" ON "documents"
  FOR EACH ROW EXECUTE FUNCTION "documents_search_vector_update"();
