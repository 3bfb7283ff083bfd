import { BlockList, isIP } from 'node:net';

export type NetworkName = 'loopback' | 'private' | 'link-local';

function blockList(v4: [string, number][], v6: [string, number][]): BlockList {
  const list = new BlockList();
  for (const [net, prefix] of v4) list.addSubnet(net, prefix, 'ipv4');
  for (const [net, prefix] of v6) list.addSubnet(net, prefix, 'ipv6');
  return list;
}

const NETWORKS: Record<NetworkName, BlockList> = {
  loopback: blockList([['127.0.0.0', 8]], [['::1', 128]]),
  private: blockList(
    [
      ['10.0.0.0', 8],
      ['172.16.0.0', 12],
      ['192.168.0.0', 16],
      ['100.64.0.0', 10],
    ],
    [['fc00::', 7]],
  ),
  'link-local': blockList([['169.254.0.0', 16]], [['fe80::', 10]]),
};

/** Never a webhook target, whatever the policy: "this host", multicast, reserved and broadcast. */
const NEVER = blockList(
  [
    ['0.0.0.0', 8],
    ['224.0.0.0', 4],
    ['240.0.0.0', 4],
  ],
  [
    ['::', 128],
    ['ff00::', 8],
  ],
);

/**
 * Which addresses outbound webhooks may reach. By default only public ones: a rule must not be a
 * way to probe the cluster's own network (SSRF). Operators can open loopback, private or link-local.
 */
export class AddressPolicy {
  constructor(private readonly allowed: readonly string[]) {}

  /** Why the address is refused, or undefined when it may be called. */
  refusal(address: string): string | undefined {
    let ip = address;
    const family = isIP(ip);
    if (family === 0) return `${address} is not an IP address`;
    // IPv4-mapped IPv6 addresses are checked as the IPv4 address they carry.
    const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
    if (mapped?.[1]) ip = mapped[1];
    const type = isIP(ip) === 6 ? 'ipv6' : 'ipv4';
    if (NEVER.check(ip, type)) return `${address} is not a routable address`;
    for (const [name, list] of Object.entries(NETWORKS)) {
      if (list.check(ip, type) && !this.allowed.includes(name)) {
        return `${address} is a ${name} address; set WEBHOOK_ALLOWED_NETWORKS to allow ${name} targets`;
      }
    }
    return undefined;
  }
}
