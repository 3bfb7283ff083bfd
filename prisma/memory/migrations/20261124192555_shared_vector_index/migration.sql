-- CreateTable
CREATE TABLE "shared_vector_index" (
    "collection" TEXT NOT NULL,
    "position" BIGINT NOT NULL,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "shared_vector_index_pkey" PRIMARY KEY ("collection")
);

