/**
 * The demo's account and application. They work only while the demo protocols are what is served
 * (loaded from demo/ by `serve`); their credentials are fixed and printed at start, so that the
 * flow can be tried at once. Once other data is served they are disabled: their credentials are
 * public, and an application's tokens see the private protocols of everyone who authorized it.
 */
import type { Db } from '../../core/store/db.js';
import type { ServiceContext } from '../types.js';
import { createClient, createUser, findClient, findUser } from './accounts.js';
import { DATASET, SERVICE } from './handlers.js';
import { hashPassword, sha256 } from './secrets.js';
import { issueClientToken } from './tokens.js';

export const DEMO = {
  username: 'biomirror-demo',
  password: 'demo-password',
  name: 'Demo User (biomirror)',
  clientId: 'biomirror-demo-client',
  clientSecret: 'demo-client-secret',
  clientName: 'biomirror demo application',
  clientToken: 'demo-client-token',
  // Redirect URIs match exactly (a confidential client): the address the server runs at is added
  // at start, beside these port-less ones.
  redirectUris: ['http://127.0.0.1/protocols/api/v3/oauth/test', 'http://127.0.0.1/api/v3/oauth/test'],
} as const;

/** A stored value no password or secret digests to. */
const DISABLED = '!';

/** Makes (or restores) the demo account and application; `redirects` are added to its redirect URIs. */
export async function ensureDemoAccounts(db: Db, redirects: readonly string[] = []): Promise<void> {
  const uris = [...new Set([...DEMO.redirectUris, ...redirects])];
  if (await findUser(db, DEMO.username)) {
    await db.run('UPDATE proto_users SET password_hash = ? WHERE username = ?', [await hashPassword(DEMO.password), DEMO.username]);
  } else {
    await createUser(db, { username: DEMO.username, password: DEMO.password, name: DEMO.name, affiliation: 'biomirror demo data' });
  }
  let client = await findClient(db, DEMO.clientId);
  if (client) {
    await db.run('UPDATE proto_clients SET secret_hash = ?, redirect_uris = ? WHERE id = ?', [sha256(DEMO.clientSecret), JSON.stringify(uris), client.id]);
  } else {
    client = (
      await createClient(db, {
        name: DEMO.clientName,
        owner: DEMO.username,
        redirectUris: uris,
        clientId: DEMO.clientId,
        secret: DEMO.clientSecret,
      })
    ).client;
  }
  await issueClientToken(db, client, DEMO.clientToken);
}

/** Disables the demo account and application and revokes their tokens; true if they were in use. */
export async function retireDemoAccounts(db: Db, now = Date.now()): Promise<boolean> {
  const user = await db.one<{ id: number; password_hash: string }>('SELECT id, password_hash FROM proto_users WHERE username = ?', [DEMO.username]);
  const client = await db.one<{ id: number; secret_hash: string }>('SELECT id, secret_hash FROM proto_clients WHERE client_id = ?', [DEMO.clientId]);
  if ((!user || user.password_hash === DISABLED) && (!client || client.secret_hash === DISABLED)) return false;
  await db.transaction(async (tx) => {
    if (client) {
      await tx.run('UPDATE proto_clients SET secret_hash = ? WHERE id = ?', [DISABLED, client.id]);
      await tx.run('UPDATE proto_authorizations SET revoked_at = ? WHERE client_id = ? AND revoked_at IS NULL', [now, client.id]);
      await tx.run('UPDATE proto_tokens SET revoked_at = ? WHERE client_id = ? AND revoked_at IS NULL', [now, client.id]);
    }
    if (user) {
      await tx.run('UPDATE proto_users SET password_hash = ? WHERE id = ?', [DISABLED, user.id]);
      await tx.run('UPDATE proto_tokens SET revoked_at = ? WHERE user_id = ? AND revoked_at IS NULL', [now, user.id]);
    }
  });
  return true;
}

/** Before the first request: the demo account and token, where the demo protocols are served. */
export async function prepareDemo(ctx: ServiceContext): Promise<void> {
  const served = await ctx.generations.served(SERVICE);
  if (served.some((l) => l.dataset === DATASET && l.source.startsWith('demo:'))) await ensureDemoAccounts(ctx.db);
}

export async function startupNotes(ctx: ServiceContext, base = 'http://127.0.0.1:8080/protocols'): Promise<string[]> {
  const served = await ctx.generations.served(SERVICE);
  if (!served.some((l) => l.dataset === DATASET && l.source.startsWith('demo:'))) {
    const retired = await retireDemoAccounts(ctx.db);
    return retired ? [`the demo account ${DEMO.username} and application ${DEMO.clientId} are disabled: the demo protocols are no longer served`] : [];
  }
  const redirect = `${base}/api/v3/oauth/test`;
  await ensureDemoAccounts(ctx.db, [redirect]);
  return [
    `demo user ${DEMO.username}, password ${DEMO.password} (owns the demo's private protocols)`,
    `demo application client_id ${DEMO.clientId}, client_secret ${DEMO.clientSecret}, redirect URI ${redirect}`,
    `demo CLIENT_ACCESS_TOKEN ${DEMO.clientToken}`,
    `sign in and authorize at ${base}/api/v3/oauth/authorize?client_id=${DEMO.clientId}&redirect_uri=${encodeURIComponent(redirect)}&response_type=code&state=demo`,
  ];
}
