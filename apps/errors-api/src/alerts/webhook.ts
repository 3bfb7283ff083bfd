import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import type { AddressPolicy } from './address-policy.ts';

export interface WebhookResult {
  ok: boolean;
  attempts: number;
  status?: number;
  error?: string;
}

export interface WebhookOptions {
  timeoutMs: number;
  maxAttempts: number;
  retryDelayMs: number;
  policy: AddressPolicy;
  signal: AbortSignal;
}

class PolicyError extends Error {}

/**
 * The policy is checked on the address the connection actually uses, inside DNS lookup, so a
 * name that resolves to a private address (or changes between check and call) is refused too.
 */
function guardedLookup(policy: AddressPolicy): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return callback(err, '', 0);
      const list = addresses as LookupAddress[];
      for (const { address } of list) {
        const refusal = policy.refusal(address);
        if (refusal) return callback(new PolicyError(refusal), '', 0);
      }
      if (options.all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, list);
      const first = list[0] as LookupAddress;
      callback(null, first.address, first.family);
    });
  };
}

function postOnce(url: URL, body: string, options: WebhookOptions): Promise<number> {
  return new Promise((resolve, reject) => {
    const client = url.protocol === 'https:' ? https : http;
    const request = client.request(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'content-length': Buffer.byteLength(body),
        'user-agent': 'trove-errors-api-webhook',
      },
      lookup: guardedLookup(options.policy),
      timeout: options.timeoutMs,
      signal: options.signal,
    });
    request.on('timeout', () => request.destroy(new Error(`no answer within ${options.timeoutMs} ms`)));
    request.on('error', reject);
    request.on('response', (response) => {
      response.resume();
      response.on('end', () => resolve(response.statusCode ?? 0));
      response.on('error', reject);
    });
    request.end(body);
  });
}

const retryable = (status: number) => status === 408 || status === 429 || status >= 500;

/** POSTs JSON with a timeout per attempt, retrying network errors, timeouts, 408, 429 and 5xx. */
export async function deliverWebhook(
  target: string,
  payload: unknown,
  options: WebhookOptions,
): Promise<WebhookResult> {
  const url = new URL(target);
  const body = JSON.stringify(payload);
  // Node skips DNS lookup for literal addresses, so those are checked here.
  const literal = url.hostname.replace(/^\[|\]$/g, '');
  if (isIP(literal) !== 0) {
    const refusal = options.policy.refusal(literal);
    if (refusal) return { ok: false, attempts: 0, error: refusal };
  }
  let last: WebhookResult = { ok: false, attempts: 0 };
  for (let attempt = 1; attempt <= options.maxAttempts; attempt++) {
    if (options.signal.aborted) break;
    try {
      const status = await postOnce(url, body, options);
      last = { ok: status >= 200 && status < 300, attempts: attempt, status };
      if (last.ok || !retryable(status)) return last;
    } catch (err) {
      last = { ok: false, attempts: attempt, error: (err as Error).message };
      if (err instanceof PolicyError) return last;
    }
    if (attempt < options.maxAttempts) {
      const delay = options.retryDelayMs * 2 ** (attempt - 1);
      await new Promise((resolve) => setTimeout(resolve, delay).unref());
    }
  }
  return last;
}
