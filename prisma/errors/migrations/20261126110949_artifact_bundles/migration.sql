-- CreateTable
CREATE TABLE "upload_chunks" (
    "checksum" TEXT NOT NULL,
    "content" BYTEA NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "upload_chunks_pkey" PRIMARY KEY ("checksum")
);

-- CreateTable
CREATE TABLE "artifact_bundles" (
    "id" UUID NOT NULL,
    "project_id" INTEGER NOT NULL,
    "checksum" TEXT NOT NULL,
    "release" TEXT,
    "dist" TEXT,
    "content" BYTEA,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "artifact_bundles_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "artifact_bundle_files" (
    "bundle_id" UUID NOT NULL,
    "project_id" INTEGER NOT NULL,
    "path" TEXT NOT NULL,
    "url" TEXT NOT NULL,
    "type" TEXT NOT NULL,
    "debug_id" UUID,
    "release" TEXT,
    "dist" TEXT,
    "sourcemap" TEXT,

    CONSTRAINT "artifact_bundle_files_pkey" PRIMARY KEY ("bundle_id","path")
);

-- CreateIndex
CREATE INDEX "upload_chunks_created_at_idx" ON "upload_chunks"("created_at");

-- CreateIndex
CREATE UNIQUE INDEX "artifact_bundles_project_id_checksum_key" ON "artifact_bundles"("project_id", "checksum");

-- CreateIndex
CREATE INDEX "artifact_bundle_files_project_id_debug_id_idx" ON "artifact_bundle_files"("project_id", "debug_id");

-- CreateIndex
CREATE INDEX "artifact_bundle_files_project_id_release_idx" ON "artifact_bundle_files"("project_id", "release");

-- AddForeignKey
ALTER TABLE "artifact_bundles" ADD CONSTRAINT "artifact_bundles_project_id_fkey" FOREIGN KEY ("project_id") REFERENCES "projects"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "artifact_bundle_files" ADD CONSTRAINT "artifact_bundle_files_bundle_id_fkey" FOREIGN KEY ("bundle_id") REFERENCES "artifact_bundles"("id") ON DELETE CASCADE ON UPDATE CASCADE;

