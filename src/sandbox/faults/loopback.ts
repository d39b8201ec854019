import { isIP } from 'node:net';

/** True for a host name or address of this machine only: `localhost`, 127.0.0.0/8, `::1`, and IPv4-mapped 127.x. */
export function isLoopback(host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, '').toLowerCase();
  if (bare === 'localhost' || bare === '::1') return true;
  const v4 = bare.startsWith('::ffff:') ? bare.slice('::ffff:'.length) : bare;
  return isIP(v4) === 4 && v4.startsWith('127.');
}
