import type { Logger } from '@trove/service-kit';
import type { SharedState } from '@trove/shared-state';
import type { ErrorsConfig } from '../config.ts';
import type { ErrorsDatabase } from '../db.ts';
import type { IssueChange } from '../ingest/event-writer.ts';
import { issueJson } from '../issues/issue-json.ts';
import { ReplicatedCache } from '../replicated-cache.ts';
import { AddressPolicy } from './address-policy.ts';
import { matches, type RuleConditions } from './conditions.ts';
import { deliverWebhook } from './webhook.ts';

interface RuleRow {
  id: string;
  name: string;
  conditions: RuleConditions;
  action_type: string;
  action_config: { url: string };
  cooldown_seconds: number;
}

/**
 * Rules change rarely and are read for every batch: cached, and dropped on every replica at once
 * when one changes them (pub/sub); the time limit is only a safety net.
 */
const RULE_CACHE_MS = 30_000;

/**
 * Evaluates alert rules after events are committed, off the ingest path: an answer to the SDK
 * never waits for a webhook. A rule fires at most once per issue per cooldown, claimed with one
 * conditional upsert so replicas never double-fire.
 */
export class AlertEngine {
  readonly policy: AddressPolicy;
  private readonly rules: ReplicatedCache<RuleRow[]>;
  private readonly inFlight = new Set<Promise<void>>();
  private readonly abort = new AbortController();

  constructor(
    private readonly db: ErrorsDatabase,
    private readonly config: ErrorsConfig,
    private readonly logger: Logger,
    state: SharedState,
  ) {
    this.policy = new AddressPolicy(config.WEBHOOK_ALLOWED_NETWORKS);
    this.rules = new ReplicatedCache(state, 'alert-rules', RULE_CACHE_MS, logger);
  }

  start(): Promise<void> {
    return this.rules.start();
  }

  /** Called after a change to a project's rules is committed, before it is answered. */
  rulesChanged(projectId: number): Promise<void> {
    return this.rules.invalidate(projectId);
  }

  onIssueChanges = (changes: IssueChange[]): void => {
    const task = this.evaluate(changes).catch((err) => this.logger.error({ err }, 'alert evaluation failed'));
    this.track(task);
  };

  /** Stops retries and waits for calls in flight; called when the app closes. */
  async stop(): Promise<void> {
    this.abort.abort();
    await Promise.allSettled([...this.inFlight, this.rules.stop()]);
  }

  /** Resolves when every evaluation and delivery started so far has finished (tests and shutdown). */
  async idle(): Promise<void> {
    while (this.inFlight.size > 0) await Promise.allSettled([...this.inFlight]);
  }

  private track(task: Promise<void>): void {
    this.inFlight.add(task);
    task.finally(() => this.inFlight.delete(task));
  }

  private async rulesOf(projectId: number): Promise<RuleRow[]> {
    const rows = await this.rules.get(projectId, () =>
      this.db.sql.query<RuleRow>(
        `SELECT id, name, conditions, action_type, action_config, cooldown_seconds
         FROM alert_rules WHERE project_id = $1 AND enabled`,
        [projectId],
      ),
    );
    return rows ?? [];
  }

  private async evaluate(changes: IssueChange[]): Promise<void> {
    for (const change of changes) {
      for (const rule of await this.rulesOf(change.issue.project_id)) {
        if (!matches(rule.conditions, change)) continue;
        if (!(await this.claim(rule, change.issue.id))) continue;
        this.track(this.fire(rule, change));
      }
    }
  }

  /** The rule must still be enabled when it is claimed: one disabled a moment ago never fires. */
  private async claim(rule: RuleRow, issueId: string): Promise<boolean> {
    const rows = await this.db.sql.query(
      `INSERT INTO alert_rule_fires AS f (rule_id, issue_id, last_fired_at)
       SELECT $1, $2, now() FROM alert_rules WHERE id = $1 AND enabled
       ON CONFLICT (rule_id, issue_id) DO UPDATE SET last_fired_at = now()
       WHERE f.last_fired_at <= now() - make_interval(secs => $3)
       RETURNING 1`,
      [rule.id, issueId, rule.cooldown_seconds],
    );
    return rows.length > 0;
  }

  private async fire(rule: RuleRow, change: IssueChange): Promise<void> {
    const issue = issueJson(change.issue, change.issue.project_slug);
    const payload = {
      type: 'alert',
      rule: { id: rule.id, name: rule.name },
      project: issue.project,
      trigger: change.created ? 'new_issue' : change.reopened ? 'regression' : 'event',
      issue,
      triggered_at: new Date().toISOString(),
    };
    const result = await deliverWebhook(rule.action_config.url, payload, {
      timeoutMs: this.config.WEBHOOK_TIMEOUT_MS,
      maxAttempts: this.config.WEBHOOK_MAX_ATTEMPTS,
      retryDelayMs: this.config.WEBHOOK_RETRY_DELAY_MS,
      policy: this.policy,
      signal: this.abort.signal,
    });
    if (!result.ok) this.logger.warn({ rule: rule.id, ...result }, 'webhook delivery failed');
    await this.db.sql
      .query(
        `INSERT INTO alert_deliveries (id, rule_id, project_id, issue_id, status, attempts, response_status, error)
         SELECT gen_random_uuid(), $1, $2, $3, $4, $5, $6, $7 WHERE EXISTS (SELECT 1 FROM alert_rules WHERE id = $1)`,
        [
          rule.id,
          change.issue.project_id,
          change.issue.id,
          result.ok ? 'delivered' : 'failed',
          result.attempts,
          result.status ?? null,
          result.error ?? null,
        ],
      )
      .catch((err) => this.logger.warn({ err }, 'could not record a webhook delivery'));
  }
}
