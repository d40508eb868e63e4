/**
 * The spec's limits: 100 requests per minute per user on the standard endpoints; on the PDF
 * endpoint 5 per minute for a signed-in user (a valid token) and 3 per minute for an anonymous
 * caller (per IP address). Requests without a valid token on the standard endpoints (the sign-in
 * pages, the token endpoint, refused API calls) count per IP address.
 */
import type { LimitRule, LimitSubject } from '../../core/limits/policy.js';
import type { Db } from '../../core/store/db.js';
import type { UserKeys } from './auth.js';

const MINUTE = 60_000;
const isPdf = (s: LimitSubject) => s.path.startsWith('/view/');

export function protocolLimits(keys: UserKeys, db: () => Db | undefined): LimitRule[] {
  const user = async (s: LimitSubject) => {
    const id = await keys.userOf(db(), s.headers);
    return id === null ? null : `user:${id}`;
  };
  return [
    { name: 'per-user', limit: 100, windowMs: MINUTE, key: async (s) => (isPdf(s) ? null : ((await user(s)) ?? `ip:${s.ip}`)) },
    { name: 'pdf-signed-in', limit: 5, windowMs: MINUTE, key: async (s) => (isPdf(s) ? await user(s) : null) },
    { name: 'pdf-anonymous', limit: 3, windowMs: MINUTE, key: async (s) => (isPdf(s) && (await user(s)) === null ? `ip:${s.ip}` : null) },
  ];
}
