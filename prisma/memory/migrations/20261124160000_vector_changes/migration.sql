-- CreateTable
CREATE TABLE "vector_changes" (
    "id" BIGSERIAL NOT NULL,
    "entity" TEXT NOT NULL,
    "entity_id" UUID NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "vector_changes_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "vector_change_horizon" (
    "id" INTEGER NOT NULL DEFAULT 1,
    "trimmed_through" BIGINT NOT NULL DEFAULT 0,

    CONSTRAINT "vector_change_horizon_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "vector_changes_created_at_idx" ON "vector_changes"("created_at");


-- The single horizon row the trimming updates.
INSERT INTO "vector_change_horizon" ("id", "trimmed_through") VALUES (1, 0);

-- Appends a change in the writing transaction, whichever code path writes (remember's single
-- statement, updates, forget, lifecycle, imports, merges, hard deletes), and wakes the replicas.
-- Postgres folds identical notifications of one transaction into one, so a bulk write sends one.
CREATE FUNCTION "vector_change_record"() RETURNS trigger AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    INSERT INTO "vector_changes" ("entity", "entity_id") VALUES (TG_ARGV[0], OLD."id");
  ELSE
    INSERT INTO "vector_changes" ("entity", "entity_id") VALUES (TG_ARGV[0], NEW."id");
  END IF;
  PERFORM pg_notify('trove_vector_changes', TG_ARGV[0]);
  RETURN NULL;
END
$$ LANGUAGE plpgsql;

-- Only the columns the vector index or its filters hold: access counts and importance do not wake anyone.
CREATE TRIGGER "memories_vector_change_trigger"
  AFTER INSERT OR DELETE OR UPDATE OF "embedding", "embedding_model", "content_hash", "status", "namespace",
    "tags", "metadata", "created_at", "deprecated_at", "valid_until" ON "memories"
  FOR EACH ROW EXECUTE FUNCTION "vector_change_record"('memory');

CREATE TRIGGER "documents_vector_change_trigger"
  AFTER INSERT OR DELETE OR UPDATE OF "embedding", "embedding_model", "namespace", "tags", "created_at" ON "documents"
  FOR EACH ROW EXECUTE FUNCTION "vector_change_record"('document');
