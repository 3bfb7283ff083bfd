-- CreateTable
CREATE TABLE "users" (
    "id" UUID NOT NULL,
    "email" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "role" TEXT NOT NULL,
    "password_hash" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "users_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "sessions" (
    "id" UUID NOT NULL,
    "user_id" UUID NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "sessions_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "projects" (
    "id" SERIAL NOT NULL,
    "name" TEXT NOT NULL,
    "slug" TEXT NOT NULL,
    "dsn_key" TEXT NOT NULL,
    "archived_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "projects_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "issues" (
    "id" UUID NOT NULL,
    "project_id" INTEGER NOT NULL,
    "fingerprint" TEXT NOT NULL,
    "grouping" JSONB NOT NULL,
    "title" TEXT NOT NULL,
    "culprit" TEXT,
    "level" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'unresolved',
    "count" INTEGER NOT NULL DEFAULT 0,
    "first_seen" TIMESTAMPTZ(3) NOT NULL,
    "last_seen" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "issues_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "events" (
    "id" UUID NOT NULL,
    "project_id" INTEGER NOT NULL,
    "issue_id" UUID NOT NULL,
    "event_id" TEXT NOT NULL,
    "level" TEXT NOT NULL,
    "title" TEXT NOT NULL,
    "received_at" TIMESTAMPTZ(3) NOT NULL,
    "payload" BYTEA NOT NULL,

    CONSTRAINT "events_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "alert_rules" (
    "id" UUID NOT NULL,
    "project_id" INTEGER NOT NULL,
    "name" TEXT NOT NULL,
    "conditions" JSONB NOT NULL,
    "action_type" TEXT NOT NULL,
    "action_config" JSONB NOT NULL,
    "cooldown_seconds" INTEGER NOT NULL,
    "enabled" BOOLEAN NOT NULL DEFAULT true,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "alert_rules_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "alert_rule_fires" (
    "rule_id" UUID NOT NULL,
    "issue_id" UUID NOT NULL,
    "last_fired_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "alert_rule_fires_pkey" PRIMARY KEY ("rule_id","issue_id")
);

-- CreateTable
CREATE TABLE "alert_deliveries" (
    "id" UUID NOT NULL,
    "rule_id" UUID NOT NULL,
    "project_id" INTEGER NOT NULL,
    "issue_id" UUID NOT NULL,
    "fired_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "status" TEXT NOT NULL,
    "attempts" INTEGER NOT NULL,
    "response_status" INTEGER,
    "error" TEXT,

    CONSTRAINT "alert_deliveries_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "users_email_key" ON "users"("email");

-- CreateIndex
CREATE INDEX "sessions_user_id_idx" ON "sessions"("user_id");

-- CreateIndex
CREATE INDEX "sessions_expires_at_idx" ON "sessions"("expires_at");

-- CreateIndex
CREATE UNIQUE INDEX "projects_slug_key" ON "projects"("slug");

-- CreateIndex
CREATE UNIQUE INDEX "projects_dsn_key_key" ON "projects"("dsn_key");

-- CreateIndex
CREATE INDEX "issues_project_id_last_seen_idx" ON "issues"("project_id", "last_seen" DESC);

-- CreateIndex
CREATE UNIQUE INDEX "issues_project_id_fingerprint_key" ON "issues"("project_id", "fingerprint");

-- CreateIndex
CREATE INDEX "events_issue_id_received_at_idx" ON "events"("issue_id", "received_at" DESC);

-- CreateIndex
CREATE UNIQUE INDEX "events_project_id_event_id_key" ON "events"("project_id", "event_id");

-- CreateIndex
CREATE INDEX "alert_rules_project_id_idx" ON "alert_rules"("project_id");

-- CreateIndex
CREATE INDEX "alert_deliveries_rule_id_fired_at_idx" ON "alert_deliveries"("rule_id", "fired_at" DESC);

-- CreateIndex
CREATE INDEX "alert_deliveries_project_id_idx" ON "alert_deliveries"("project_id");

-- AddForeignKey
ALTER TABLE "sessions" ADD CONSTRAINT "sessions_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "issues" ADD CONSTRAINT "issues_project_id_fkey" FOREIGN KEY ("project_id") REFERENCES "projects"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "events" ADD CONSTRAINT "events_project_id_fkey" FOREIGN KEY ("project_id") REFERENCES "projects"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "events" ADD CONSTRAINT "events_issue_id_fkey" FOREIGN KEY ("issue_id") REFERENCES "issues"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "alert_rules" ADD CONSTRAINT "alert_rules_project_id_fkey" FOREIGN KEY ("project_id") REFERENCES "projects"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "alert_rule_fires" ADD CONSTRAINT "alert_rule_fires_rule_id_fkey" FOREIGN KEY ("rule_id") REFERENCES "alert_rules"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "alert_deliveries" ADD CONSTRAINT "alert_deliveries_rule_id_fkey" FOREIGN KEY ("rule_id") REFERENCES "alert_rules"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "alert_deliveries" ADD CONSTRAINT "alert_deliveries_project_id_fkey" FOREIGN KEY ("project_id") REFERENCES "projects"("id") ON DELETE CASCADE ON UPDATE CASCADE;


-- Payloads arrive compressed; a second (pglz) compression attempt by the database would only cost time.
ALTER TABLE "events" ALTER COLUMN "payload" SET STORAGE EXTERNAL;

-- Stores one batch of ingested events in one atomic statement: skips events already stored (SDKs
-- retry), upserts one issue per fingerprint (a resolved issue that gets a new event reopens: a
-- regression) and inserts the events. A PL/pgSQL function so that the plan is cached per
-- connection: planning this statement costs more than running it for a small batch.
-- `batch` is a JSON array of {ord, project_id, event_id, fingerprint, grouping, title, culprit,
-- level, received_at, payload (base64)}; one JSON row per issue touched comes back.
CREATE FUNCTION "errors_ingest_batch"(batch json) RETURNS SETOF json LANGUAGE plpgsql AS $fn$
BEGIN
  RETURN QUERY
  WITH input AS (
    SELECT * FROM json_to_recordset(batch) AS x(
      ord int, project_id int, event_id text, fingerprint text, grouping jsonb, title text,
      culprit text, level text, received_at timestamptz, payload text)
  ),
  fresh AS (
    SELECT DISTINCT ON (i.project_id, i.event_id) i.* FROM input i
    WHERE NOT EXISTS (SELECT 1 FROM events e WHERE e.project_id = i.project_id AND e.event_id = i.event_id)
    ORDER BY i.project_id, i.event_id, i.ord
  ),
  latest AS (
    SELECT DISTINCT ON (f.project_id, f.fingerprint) f.project_id, f.fingerprint, f.grouping, f.title, f.culprit, f.level,
      count(*) OVER w AS n, min(f.received_at) OVER w AS first_seen, max(f.received_at) OVER w AS last_seen
    FROM fresh f
    WINDOW w AS (PARTITION BY f.project_id, f.fingerprint)
    ORDER BY f.project_id, f.fingerprint, f.ord DESC
  ),
  prior AS (
    SELECT i.id, i.status FROM issues i JOIN latest l ON l.project_id = i.project_id AND l.fingerprint = i.fingerprint
  ),
  upserted AS (
    INSERT INTO issues AS t (id, project_id, fingerprint, grouping, title, culprit, level, status, count, first_seen, last_seen)
    SELECT gen_random_uuid(), l.project_id, l.fingerprint, l.grouping, l.title, l.culprit, l.level, 'unresolved', l.n,
      l.first_seen, l.last_seen
    FROM latest l ORDER BY l.project_id, l.fingerprint
    ON CONFLICT (project_id, fingerprint) DO UPDATE SET
      count = t.count + EXCLUDED.count,
      last_seen = GREATEST(t.last_seen, EXCLUDED.last_seen),
      level = EXCLUDED.level,
      culprit = COALESCE(EXCLUDED.culprit, t.culprit),
      status = CASE WHEN t.status = 'resolved' THEN 'unresolved' ELSE t.status END
    RETURNING t.*
  ),
  inserted AS (
    INSERT INTO events (id, project_id, issue_id, event_id, level, title, received_at, payload)
    SELECT gen_random_uuid(), f.project_id, u.id, f.event_id, f.level, f.title, f.received_at, decode(f.payload, 'base64')
    FROM fresh f JOIN upserted u ON u.project_id = f.project_id AND u.fingerprint = f.fingerprint
    ON CONFLICT (project_id, event_id) DO NOTHING
    RETURNING 1
  )
  SELECT row_to_json(z) FROM (
    SELECT u.*, p.status AS previous_status, (p.id IS NULL) AS created
    FROM upserted u LEFT JOIN prior p ON p.id = u.id
  ) z;
END
$fn$;
