import type { FastifyPluginAsync } from 'fastify';
import { deliverWebhook } from '../../alerts/webhook.ts';
import { requireUser } from '../../auth/sessions.ts';
import type { AppContext } from '../../context.ts';
import { explainRuleBody } from '../../schemas/rule-hints.ts';
import { testRuleSchema, updateRuleSchema } from '../../schemas/rules.ts';
import { findRule, type RuleBody, ruleData, ruleJson } from './index.ts';

type IdParams = { Params: { id: string } };

/** Editing a rule in place, and trying its webhook before an alert needs it. */
export const ruleEditRoutes: FastifyPluginAsync<AppContext> = async (app, { db, alerts, config }) => {
  app.addHook('onRequest', requireUser(db));

  app.put<IdParams & { Body: RuleBody }>(
    '/api/0/rules/:id',
    { schema: updateRuleSchema, preValidation: explainRuleBody },
    async (request) => {
      const data = ruleData(request.body, alerts.policy);
      const rule = await findRule(db, request.params.id);
      const updated = await db.prisma.alertRule.update({
        where: { id: rule.id },
        data,
        include: { project: { select: { slug: true } } },
      });
      await alerts.rulesChanged(rule.projectId);
      return ruleJson(updated);
    },
  );

  app.post<IdParams>('/api/0/rules/:id/test', { schema: testRuleSchema }, async (request) => {
    const rule = await findRule(db, request.params.id);
    const target = (rule.actionConfig as { url: string }).url;
    const payload = {
      test: true,
      rule: { id: rule.id, name: rule.name },
      project: rule.project.slug,
      message: 'A test delivery from Trove errors: this rule can reach its webhook.',
      sent_at: new Date().toISOString(),
    };
    // One attempt: the caller is waiting for the answer and can press the button again.
    return deliverWebhook(target, payload, {
      timeoutMs: config.WEBHOOK_TIMEOUT_MS,
      maxAttempts: 1,
      retryDelayMs: 0,
      policy: alerts.policy,
      signal: AbortSignal.timeout(config.WEBHOOK_TIMEOUT_MS + 1000),
    });
  });
};
