/**
 * IPv4 ranges no client or server on the public internet has (RFC 6890 special-purpose registry): "this network",
 * private (RFC 1918), shared / carrier-grade NAT (RFC 6598), loopback, link-local (RFC 3927), IETF protocol
 * assignments, benchmarking (RFC 2544), multicast and reserved. Read by the IP location check (a client address in
 * them has no location) and by the webhook guard (a receiver in them is refused).
 */
export const NON_PUBLIC_V4 = [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const;
