-- The ingest batch as before, made cheaper again (it had become 5-12% slower than before issue 31
-- in bench/batch-ab.ts): the stored events are named by their event ids, grouped once, instead of
-- a subquery per issue joining the inserted events to the batch; and the first release of a group
-- is read over the window that DISTINCT ON already sorts (newest first, whole partition) instead
-- of a second window sorted the other way.
CREATE OR REPLACE FUNCTION "errors_ingest_batch"(batch json) RETURNS SETOF json LANGUAGE plpgsql AS $fn$
BEGIN
  RETURN QUERY
  WITH input AS (
    SELECT * FROM json_to_recordset(batch) AS x(
      ord int, project_id int, event_id text, fingerprint text, grouping jsonb, title text,
      culprit text, level text, received_at timestamptz, payload text, user_key text,
      release text, environment text)
  ),
  fresh AS (
    SELECT DISTINCT ON (i.project_id, i.event_id) i.* FROM input i
    WHERE NOT EXISTS (SELECT 1 FROM events e WHERE e.project_id = i.project_id AND e.event_id = i.event_id)
    ORDER BY i.project_id, i.event_id, i.ord
  ),
  latest AS (
    SELECT DISTINCT ON (f.project_id, f.fingerprint) f.project_id, f.fingerprint, f.grouping, f.title, f.culprit, f.level,
      count(*) OVER w AS n, min(f.received_at) OVER w AS first_seen, max(f.received_at) OVER w AS last_seen,
      last_value(f.release) OVER w AS first_release, f.release AS last_release
    FROM fresh f
    WINDOW w AS (PARTITION BY f.project_id, f.fingerprint ORDER BY f.ord DESC
      ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING)
    ORDER BY f.project_id, f.fingerprint, f.ord DESC
  ),
  prior AS (
    SELECT i.id, i.status FROM issues i JOIN latest l ON l.project_id = i.project_id AND l.fingerprint = i.fingerprint
  ),
  upserted AS (
    INSERT INTO issues AS t (id, project_id, fingerprint, grouping, title, culprit, level, status, count, first_seen, last_seen,
      first_release, last_release)
    SELECT gen_random_uuid(), l.project_id, l.fingerprint, l.grouping, l.title, l.culprit, l.level, 'unresolved', l.n,
      l.first_seen, l.last_seen, COALESCE(l.first_release, l.last_release), l.last_release
    FROM latest l ORDER BY l.project_id, l.fingerprint
    ON CONFLICT (project_id, fingerprint) DO UPDATE SET
      count = t.count + EXCLUDED.count,
      last_seen = GREATEST(t.last_seen, EXCLUDED.last_seen),
      -- The issue follows its latest event (as Sentry does): title, culprit and level, unless a
      -- concurrent batch already stored a later one.
      title = CASE WHEN EXCLUDED.last_seen >= t.last_seen THEN EXCLUDED.title ELSE t.title END,
      culprit = CASE WHEN EXCLUDED.last_seen >= t.last_seen THEN EXCLUDED.culprit ELSE t.culprit END,
      level = CASE WHEN EXCLUDED.last_seen >= t.last_seen THEN EXCLUDED.level ELSE t.level END,
      last_release = COALESCE(EXCLUDED.last_release, t.last_release),
      -- A resolved issue reopens (a regression), except one resolved "in the next release", which
      -- reopens only for an event of another release than the one current when it was resolved.
      status = CASE WHEN t.status = 'resolved' AND (t.resolved_after_release IS NULL
        OR EXCLUDED.last_release <> t.resolved_after_release) THEN 'unresolved' ELSE t.status END,
      resolved_after_release = CASE WHEN t.status = 'resolved' AND (t.resolved_after_release IS NULL
        OR EXCLUDED.last_release <> t.resolved_after_release) THEN NULL ELSE t.resolved_after_release END
    RETURNING t.*
  ),
  inserted AS (
    INSERT INTO events (id, project_id, issue_id, event_id, level, title, release, environment, received_at, payload)
    SELECT gen_random_uuid(), f.project_id, u.id, f.event_id, f.level, f.title, f.release, f.environment, f.received_at,
      decode(f.payload, 'base64')
    FROM fresh f JOIN upserted u ON u.project_id = f.project_id AND u.fingerprint = f.fingerprint
    ON CONFLICT (project_id, event_id) DO NOTHING
    RETURNING project_id, event_id, issue_id, received_at
  ),
  daily AS (
    INSERT INTO issue_daily_events AS d (issue_id, day, events)
    SELECT n.issue_id, (n.received_at AT TIME ZONE 'UTC')::date, count(*) FROM inserted n GROUP BY 1, 2
    ON CONFLICT (issue_id, day) DO UPDATE SET events = d.events + EXCLUDED.events
    RETURNING 1
  ),
  users AS (
    INSERT INTO issue_users (issue_id, user_key)
    SELECT DISTINCT n.issue_id, f.user_key FROM inserted n
    JOIN fresh f ON f.project_id = n.project_id AND f.event_id = n.event_id
    WHERE f.user_key IS NOT NULL
    ON CONFLICT DO NOTHING
    RETURNING 1
  ),
  -- Which of the batch's events were stored (not retries of stored ones): their tags are counted.
  stored AS (SELECT n.issue_id, array_agg(n.event_id) AS event_ids FROM inserted n GROUP BY n.issue_id)
  SELECT row_to_json(z) FROM (
    SELECT u.*, p.status AS previous_status, (p.id IS NULL) AS created, s.event_ids AS stored_event_ids
    FROM upserted u LEFT JOIN prior p ON p.id = u.id LEFT JOIN stored s ON s.issue_id = u.id
  ) z;
END
$fn$;
