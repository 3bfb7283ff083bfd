-- CreateTable
CREATE TABLE "memories" (
    "id" UUID NOT NULL,
    "content" TEXT NOT NULL,
    "tags" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "namespace" TEXT NOT NULL DEFAULT 'default',
    "memory_type" TEXT NOT NULL,
    "metadata" JSONB NOT NULL DEFAULT '{}',
    "importance" DOUBLE PRECISION NOT NULL DEFAULT 0.5,
    "pinned" BOOLEAN NOT NULL DEFAULT false,
    "status" TEXT NOT NULL DEFAULT 'active',
    "source" TEXT,
    "source_type" TEXT NOT NULL DEFAULT 'user',
    "author_type" TEXT,
    "content_hash" TEXT NOT NULL,
    "valid_from" TIMESTAMPTZ(3),
    "valid_until" TIMESTAMPTZ(3),
    "embedding" BYTEA,
    "embedding_model" TEXT,
    "access_count" INTEGER NOT NULL DEFAULT 0,
    "last_accessed_at" TIMESTAMPTZ(3),
    "helpful_count" INTEGER NOT NULL DEFAULT 0,
    "unhelpful_count" INTEGER NOT NULL DEFAULT 0,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "deprecated_at" TIMESTAMPTZ(3),
    "search_vector" tsvector,

    CONSTRAINT "memories_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "memory_events" (
    "id" BIGSERIAL NOT NULL,
    "memory_id" UUID NOT NULL,
    "kind" TEXT NOT NULL,
    "actor" TEXT NOT NULL DEFAULT 'api',
    "evidence" JSONB NOT NULL DEFAULT '{}',
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "memory_events_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "memory_edges" (
    "id" UUID NOT NULL,
    "source_id" UUID NOT NULL,
    "target_id" UUID NOT NULL,
    "edge_type" TEXT NOT NULL,
    "weight" DOUBLE PRECISION NOT NULL DEFAULT 1,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "memory_edges_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "memories_namespace_status_idx" ON "memories"("namespace", "status");

-- CreateIndex
CREATE INDEX "memories_status_created_at_idx" ON "memories"("status", "created_at");

-- CreateIndex
CREATE INDEX "memories_content_hash_idx" ON "memories"("content_hash");

-- CreateIndex
CREATE INDEX "memories_search_vector_idx" ON "memories" USING GIN ("search_vector");

-- CreateIndex
CREATE INDEX "memories_tags_idx" ON "memories" USING GIN ("tags");

-- CreateIndex
CREATE INDEX "memory_events_memory_id_id_idx" ON "memory_events"("memory_id", "id");

-- CreateIndex
CREATE INDEX "memory_edges_target_id_idx" ON "memory_edges"("target_id");

-- CreateIndex
CREATE UNIQUE INDEX "memory_edges_source_id_target_id_edge_type_key" ON "memory_edges"("source_id", "target_id", "edge_type");

-- AddForeignKey
ALTER TABLE "memory_events" ADD CONSTRAINT "memory_events_memory_id_fkey" FOREIGN KEY ("memory_id") REFERENCES "memories"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "memory_edges" ADD CONSTRAINT "memory_edges_source_id_fkey" FOREIGN KEY ("source_id") REFERENCES "memories"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "memory_edges" ADD CONSTRAINT "memory_edges_target_id_fkey" FOREIGN KEY ("target_id") REFERENCES "memories"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Full text over content (weight A) and tags (weight B), kept by a trigger because Prisma cannot
-- declare a generated tsvector column (array_to_string is not immutable, so it could not be one).
CREATE FUNCTION "memories_search_vector_update"() RETURNS trigger AS $$
BEGIN
  NEW."search_vector" :=
    setweight(to_tsvector('english', coalesce(NEW."content", '')), 'A') ||
    setweight(to_tsvector('english', coalesce(array_to_string(NEW."tags", ' '), '')), 'B');
  RETURN NEW;
END
$$ LANGUAGE plpgsql;

CREATE TRIGGER "memories_search_vector_trigger"
  BEFORE INSERT OR UPDATE OF "content", "tags" ON "memories"
  FOR EACH ROW EXECUTE FUNCTION "memories_search_vector_update"();
