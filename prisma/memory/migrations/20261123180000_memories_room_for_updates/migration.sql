-- Recall counts an access on every memory it returns (access_count, last_accessed_at): an update
-- of unindexed columns that Postgres can make in place (a heap-only tuple, no index entries) only
-- when the row's page has room. Pages filled to the brim by inserts forced 3 in 4 of those updates
-- to write a new entry in every index of the table, both GIN indexes included; leave 10% free.
ALTER TABLE "memories" SET (fillfactor = 90);
