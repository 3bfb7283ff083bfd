import { notFound } from '@trove/service-kit';
import type { FastifyPluginAsync } from 'fastify';
import type { AddressPolicy } from '../../alerts/address-policy.ts';
import { checkedWebhookUrl } from '../../alerts/webhook-url.ts';
import { requireUser } from '../../auth/sessions.ts';
import type { AppContext } from '../../context.ts';
import type { ErrorsDatabase } from '../../db.ts';
import { findProject } from '../../projects/project-store.ts';
import { explainRuleBody } from '../../schemas/rule-hints.ts';
import {
  createRuleSchema,
  deleteRuleSchema,
  listRulesSchema,
  ruleDeliveriesSchema,
  toggleRuleSchema,
} from '../../schemas/rules.ts';

type IdParams = { Params: { id: string } };
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export interface RuleRecord {
  id: string;
  projectId: number;
  name: string;
  conditions: unknown;
  actionType: string;
  actionConfig: unknown;
  cooldownSeconds: number;
  enabled: boolean;
  createdAt: Date;
  project: { slug: string };
}

export interface RuleBody {
  name: string;
  conditions: object;
  action_type: string;
  action_config: { url: string };
  cooldown_seconds: number;
  enabled: boolean;
}

/** The columns a create or replace body sets, its webhook URL checked against the address policy. */
export function ruleData(body: RuleBody, policy: AddressPolicy) {
  const url = checkedWebhookUrl(body.action_config.url, policy);
  return {
    name: body.name.trim(),
    conditions: body.conditions,
    actionType: body.action_type,
    actionConfig: { url: url.toString() },
    cooldownSeconds: body.cooldown_seconds,
    enabled: body.enabled,
  };
}

export const ruleJson = (r: RuleRecord) => ({
  id: r.id,
  project: r.project.slug,
  name: r.name,
  conditions: r.conditions,
  action_type: r.actionType,
  action_config: r.actionConfig,
  cooldown_seconds: r.cooldownSeconds,
  enabled: r.enabled,
  created_at: r.createdAt.toISOString(),
});

export async function findRule(db: ErrorsDatabase, id: string): Promise<RuleRecord> {
  const rule = UUID.test(id)
    ? await db.prisma.alertRule.findUnique({ where: { id }, include: { project: { select: { slug: true } } } })
    : null;
  if (!rule) throw notFound(`no rule with id "${id}"`);
  return rule;
}

export const ruleRoutes: FastifyPluginAsync<AppContext> = async (app, { db, alerts }) => {
  app.addHook('onRequest', requireUser(db));

  app.get<{ Params: { slug: string } }>('/api/0/projects/:slug/rules', { schema: listRulesSchema }, async (request) => {
    const project = await findProject(db, request.params.slug);
    const rules = await db.prisma.alertRule.findMany({
      where: { projectId: project.id },
      orderBy: { createdAt: 'asc' },
      include: { project: { select: { slug: true } } },
    });
    return rules.map(ruleJson);
  });

  app.post<{ Params: { slug: string }; Body: RuleBody }>(
    '/api/0/projects/:slug/rules',
    { schema: createRuleSchema, preValidation: explainRuleBody },
    async (request, reply) => {
      const data = ruleData(request.body, alerts.policy);
      const project = await findProject(db, request.params.slug);
      const rule = await db.prisma.alertRule.create({
        data: { projectId: project.id, ...data },
        include: { project: { select: { slug: true } } },
      });
      await alerts.rulesChanged(project.id);
      return reply.code(201).send(ruleJson(rule));
    },
  );

  app.delete<IdParams>('/api/0/rules/:id', { schema: deleteRuleSchema }, async (request, reply) => {
    const rule = await findRule(db, request.params.id);
    await db.prisma.alertRule.deleteMany({ where: { id: rule.id } });
    await alerts.rulesChanged(rule.projectId);
    return reply.code(204).send();
  });

  app.post<IdParams>('/api/0/rules/:id/toggle', { schema: toggleRuleSchema }, async (request) => {
    const rule = await findRule(db, request.params.id);
    // Flipped in SQL, so two toggles racing each other still leave the rule where two flips would.
    const [flipped] = await db.sql.query<{ enabled: boolean }>(
      'UPDATE alert_rules SET enabled = NOT enabled WHERE id = $1 RETURNING enabled',
      [rule.id],
    );
    await alerts.rulesChanged(rule.projectId);
    return ruleJson({ ...rule, enabled: flipped?.enabled ?? !rule.enabled });
  });

  app.get<IdParams>('/api/0/rules/:id/deliveries', { schema: ruleDeliveriesSchema }, async (request) => {
    const rule = await findRule(db, request.params.id);
    const rows = await db.prisma.alertDelivery.findMany({
      where: { ruleId: rule.id },
      orderBy: { firedAt: 'desc' },
      take: 100,
    });
    return rows.map((d) => ({
      id: d.id,
      issue_id: d.issueId,
      fired_at: d.firedAt.toISOString(),
      status: d.status,
      attempts: d.attempts,
      response_status: d.responseStatus,
      error: d.error,
    }));
  });
};
