-- Keeps memory_backlinks (derived `referenced_by` rows) in step with the edges they come from, in
-- the same transaction as the edge write, whichever code path writes the edge (remember's single
-- statement, the graph routes, maintenance). A backlink (memory_id <- referrer_id, edge_type)
-- exists while at least one edge of that type runs from referrer to memory: a memory edge, or an
-- explicit graph edge between two memory-linked graph nodes. POST /rebuild-backlinks recomputes
-- the whole table from the same rule.

-- Drops one backlink unless another edge still justifies it.
CREATE FUNCTION "memory_backlink_release"(p_memory UUID, p_referrer UUID, p_edge_type TEXT) RETURNS void AS $$
BEGIN
  DELETE FROM "memory_backlinks" b
   WHERE b."memory_id" = p_memory AND b."referrer_id" = p_referrer AND b."edge_type" = p_edge_type
     AND NOT EXISTS (
       SELECT 1 FROM "memory_edges" e
        WHERE e."source_id" = p_referrer AND e."target_id" = p_memory AND e."edge_type" = p_edge_type)
     AND NOT EXISTS (
       SELECT 1 FROM "graph_edges" g
         JOIN "graph_nodes" s ON s."id" = g."source_id"
         JOIN "graph_nodes" t ON t."id" = g."target_id"
        WHERE s."memory_id" = p_referrer AND t."memory_id" = p_memory AND g."edge_type" = p_edge_type);
END
$$ LANGUAGE plpgsql;

CREATE FUNCTION "memory_edges_backlink_sync"() RETURNS trigger AS $$
BEGIN
  IF TG_OP IN ('DELETE', 'UPDATE') THEN
    PERFORM "memory_backlink_release"(OLD."target_id", OLD."source_id", OLD."edge_type");
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    INSERT INTO "memory_backlinks" ("memory_id", "referrer_id", "edge_type", "created_at")
    VALUES (NEW."target_id", NEW."source_id", NEW."edge_type", NEW."created_at")
    ON CONFLICT DO NOTHING;
  END IF;
  RETURN NULL;
END
$$ LANGUAGE plpgsql;

CREATE TRIGGER "memory_edges_backlink_trigger"
  AFTER INSERT OR DELETE OR UPDATE OF "source_id", "target_id", "edge_type" ON "memory_edges"
  FOR EACH ROW EXECUTE FUNCTION "memory_edges_backlink_sync"();

-- Explicit graph edges count only between two nodes that stand for memories. When a node is
-- already gone (its memory was hard-deleted and the cascade took the node first) the backlinks
-- went with the memory, so there is nothing to release.
CREATE FUNCTION "graph_edges_backlink_sync"() RETURNS trigger AS $$
DECLARE
  source_memory UUID;
  target_memory UUID;
BEGIN
  IF TG_OP IN ('DELETE', 'UPDATE') THEN
    SELECT "memory_id" INTO source_memory FROM "graph_nodes" WHERE "id" = OLD."source_id";
    SELECT "memory_id" INTO target_memory FROM "graph_nodes" WHERE "id" = OLD."target_id";
    IF source_memory IS NOT NULL AND target_memory IS NOT NULL THEN
      PERFORM "memory_backlink_release"(target_memory, source_memory, OLD."edge_type");
    END IF;
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    SELECT "memory_id" INTO source_memory FROM "graph_nodes" WHERE "id" = NEW."source_id";
    SELECT "memory_id" INTO target_memory FROM "graph_nodes" WHERE "id" = NEW."target_id";
    IF source_memory IS NOT NULL AND target_memory IS NOT NULL THEN
      INSERT INTO "memory_backlinks" ("memory_id", "referrer_id", "edge_type", "created_at")
      VALUES (target_memory, source_memory, NEW."edge_type", NEW."created_at")
      ON CONFLICT DO NOTHING;
    END IF;
  END IF;
  RETURN NULL;
END
$$ LANGUAGE plpgsql;

CREATE TRIGGER "graph_edges_backlink_trigger"
  AFTER INSERT OR DELETE OR UPDATE OF "source_id", "target_id", "edge_type" ON "graph_edges"
  FOR EACH ROW EXECUTE FUNCTION "graph_edges_backlink_sync"();
