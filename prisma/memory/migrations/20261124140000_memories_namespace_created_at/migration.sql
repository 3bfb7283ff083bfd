-- Recall lets a memory's neighbours in its namespace (the turns before and after it in a
-- conversation) lend it evidence: reading them is an index lookup per candidate.
CREATE INDEX "memories_namespace_created_at_idx" ON "memories"("namespace", "created_at");
