import { DomainError } from '../domain-error.ts';
import { type Entity, type EntityKind, extractEntities, type Fact, type Relationship } from './extract.ts';

/** An OpenAI-compatible chat completions API (OpenAI, vLLM, Ollama, llama.cpp server...). */
export interface ModelEndpoint {
  baseUrl: string;
  model: string;
  apiKey: string | undefined;
  timeoutMs: number;
}

const KINDS: readonly EntityKind[] = ['name', 'email', 'url', 'date', 'quantity'];

const instructions = (maxFacts: number) =>
  [
    `Split the user's text into at most ${maxFacts} short, self-contained facts.`,
    'For each fact list its entities (kind: name, email, url, date or quantity) and its relationships',
    '(subject, predicate in snake_case, object). Answer with JSON only, in this shape:',
    '{"facts":[{"text":"...","entities":[{"text":"...","kind":"name"}],"relationships":[{"subject":"...","predicate":"works_at","object":"..."}]}]}',
  ].join(' ');

const upstream = (message: string) => new DomainError('UPSTREAM', `extraction model: ${message}`);

/** Asks the model for facts; its answer is checked field by field, and what does not fit is dropped. */
export async function extractWithModel(endpoint: ModelEndpoint, content: string, maxFacts: number): Promise<Fact[]> {
  let response: Response;
  try {
    response = await fetch(`${endpoint.baseUrl.replace(/\/+$/, '')}/chat/completions`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...(endpoint.apiKey ? { authorization: `Bearer ${endpoint.apiKey}` } : {}),
      },
      body: JSON.stringify({
        model: endpoint.model,
        temperature: 0,
        response_format: { type: 'json_object' },
        messages: [
          { role: 'system', content: instructions(maxFacts) },
          { role: 'user', content },
        ],
      }),
      signal: AbortSignal.timeout(endpoint.timeoutMs),
    });
  } catch (err) {
    if (err instanceof Error && err.name === 'TimeoutError')
      throw new DomainError('UPSTREAM_TIMEOUT', `extraction model did not answer within ${endpoint.timeoutMs} ms`);
    throw upstream(`cannot reach ${new URL(endpoint.baseUrl).origin}`);
  }
  if (!response.ok) throw upstream(`answered HTTP ${response.status}`);
  let answer: unknown;
  try {
    const body = (await response.json()) as { choices?: { message?: { content?: unknown } }[] };
    const text = body.choices?.[0]?.message?.content;
    if (typeof text !== 'string') throw new Error('no message content');
    // Some models wrap JSON in a Markdown fence despite being asked not to.
    answer = JSON.parse(text.replace(/^\s*```(?:json)?\s*|\s*```\s*$/g, ''));
  } catch {
    throw upstream('the answer is not the JSON that was asked for');
  }
  const facts = (answer as { facts?: unknown }).facts;
  if (!Array.isArray(facts)) throw upstream('the answer has no "facts" list');
  return facts.flatMap((f) => toFact(f)).slice(0, maxFacts);
}

const str = (v: unknown, max = 1000) => (typeof v === 'string' && v.trim() && v.length <= max ? v.trim() : null);

function toFact(raw: unknown): Fact[] {
  if (!raw || typeof raw !== 'object') return [];
  const r = raw as Record<string, unknown>;
  const text = str(r.text);
  if (!text) return [];
  const entities: Entity[] = Array.isArray(r.entities)
    ? r.entities.flatMap((e) => {
        const t = str((e as Record<string, unknown>)?.text, 200);
        const kind = (e as Record<string, unknown>)?.kind;
        return t ? [{ text: t, kind: KINDS.includes(kind as EntityKind) ? (kind as EntityKind) : 'name' }] : [];
      })
    : extractEntities(text);
  const relationships: Relationship[] = Array.isArray(r.relationships)
    ? r.relationships.flatMap((x) => {
        const o = (x ?? {}) as Record<string, unknown>;
        const subject = str(o.subject, 200);
        const predicate = str(o.predicate, 60)
          ?.toLowerCase()
          .replace(/[^a-z0-9]+/g, '_');
        const object = str(o.object, 200);
        return subject && predicate && object ? [{ subject, predicate, object }] : [];
      })
    : [];
  return [{ text, entities, relationships }];
}
