import { isIP } from 'node:net';
import { badRequest } from '@trove/service-kit';
import type { AddressPolicy } from './address-policy.ts';

/** A rule's webhook URL, refused with a 400 unless it is http(s) and its literal address is allowed. */
export function checkedWebhookUrl(raw: string, policy: AddressPolicy): URL {
  const url = new URL(raw);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw badRequest('action_config.url must be an http or https URL');
  }
  const literal = url.hostname.replace(/^\[|\]$/g, '');
  const refusal = isIP(literal) !== 0 ? policy.refusal(literal) : undefined;
  if (refusal) throw badRequest(`action_config.url is not allowed: ${refusal}`);
  return url;
}
