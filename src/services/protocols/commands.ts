/**
 * `biomirror protocols <command>`: accounts and applications from the command line. Options are
 * written --name value, --name=value or name=value.
 */
import { randomBytes } from 'node:crypto';
import type { ServiceCommand } from '../types.js';
import { AccountError, createClient, createUser, findClient } from './accounts.js';
import { issueClientToken } from './tokens.js';

function named(args: string[], names: readonly string[]): { positional: string[]; options: Record<string, string> } {
  const positional: string[] = [];
  const options: Record<string, string> = {};
  for (let i = 0; i < args.length; i++) {
    const a = args[i] as string;
    const flag = a.startsWith('--') ? a.slice(2) : undefined;
    const eq = (flag ?? a).indexOf('=');
    const key = eq > 0 ? (flag ?? a).slice(0, eq) : (flag ?? '');
    if (!names.includes(key)) {
      positional.push(a);
    } else if (eq > 0) {
      options[key] = (flag ?? a).slice(eq + 1);
    } else {
      // --name value
      const value = args[++i];
      if (value === undefined) usageError(`--${key} needs a value`);
      options[key] = value;
    }
  }
  return { positional, options };
}

function usageError(message: string): never {
  throw new AccountError(message);
}

export const commands: Record<string, ServiceCommand> = {
  'add-user': {
    usage: '<username> [--password <password>] [--name <full name>] [--affiliation <text>]   (a password is generated when none is given)',
    async run(args, ctx, out) {
      const { positional, options } = named(args, ['password', 'name', 'affiliation']);
      if (positional.length !== 1) usageError('add-user takes one username, then name=value options');
      const generated = options.password === undefined;
      const password = options.password ?? randomBytes(12).toString('base64url');
      const user = await createUser(ctx.db, {
        username: positional[0] as string,
        password,
        ...(options.name ? { name: options.name } : {}),
        ...(options.affiliation ? { affiliation: options.affiliation } : {}),
      });
      out(`user ${user.username} created`);
      if (generated) out(`password: ${password}`);
      return 0;
    },
  },
  'add-client': {
    usage: '<application name> <owner username> <redirect URI> [<redirect URI>...]',
    async run(args, ctx, out) {
      const [name, owner, ...uris] = args;
      if (!name || !owner || uris.length === 0) usageError('add-client takes an application name, its owner and at least one redirect URI');
      const { client, secret } = await createClient(ctx.db, { name, owner, redirectUris: uris });
      out(`client_id: ${client.clientId}`);
      out(`client_secret: ${secret}`);
      out(`redirect URIs: ${client.redirectUris.join(' ')}`);
      out('the secret is shown only now; it is stored as a digest');
      return 0;
    },
  },
  'client-token': {
    usage: '<client_id>   (a new CLIENT_ACCESS_TOKEN for the client user; the previous one stops working)',
    async run(args, ctx, out) {
      if (args.length !== 1) usageError('client-token takes one client_id');
      const client = await findClient(ctx.db, args[0] as string);
      if (!client) throw new AccountError(`no client "${args[0]}"`);
      const issued = await issueClientToken(ctx.db, client);
      out(`CLIENT_ACCESS_TOKEN: ${issued.accessToken}`);
      out(`expires: ${new Date(issued.expiresAt).toISOString()}`);
      return 0;
    },
  },
};
