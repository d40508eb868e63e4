/**
 * `biomirror mcp`: the MCP server over stdio, for agents that start it as a subprocess. It opens the
 * same data folder (or DATABASE_URL) as `serve` and builds the same app without listening, so a
 * tool call runs the HTTP routes in-process; it reads beside a running server, and sees that
 * server's loads at once (each request reads the active generation).
 */
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { pino } from 'pino';
import { closeCifPool } from '../core/mmcif/index.js';
import { endOwned } from '../core/children.js';
import { serverToken } from '../mcp/http.js';
import { createMcpServer } from '../mcp/server.js';
import { buildApp } from '../server/app.js';
import { enabledServices, loadDemoData, openRuntime } from '../server/serve.js';
import { SERVICES } from '../services/registry.js';
import { configFrom, type CommonFlags } from './flags.js';
import { DataDirInUse, holdDataDir } from './running.js';
import { exitSoon } from './stop.js';

export async function mcpCommand(flags: CommonFlags): Promise<number> {
  const config = configFrom(flags);
  // stdout carries the protocol: every log line goes to stderr.
  const log = pino({ level: config.logLevel, base: { app: 'biomirror-mcp' } }, pino.destination(2));
  const services = enabledServices(config, SERVICES);
  const runtime = await openRuntime(config, services, log);
  // An empty folder no server holds gets the demo data, as `serve` would; beside a running server
  // the server does that, and this process only reads.
  if (config.demo && !config.databaseUrl) {
    let release: (() => void) | undefined;
    try {
      release = holdDataDir(config.dataDir);
    } catch (err) {
      if (!(err instanceof DataDirInUse)) throw err;
    }
    try {
      if (release) await loadDemoData(runtime, services);
    } finally {
      release?.();
    }
  } else if (config.demo) {
    await loadDemoData(runtime, services);
  }
  const app = await buildApp({ ...runtime, config }, services, true);
  await app.ready();
  // The local user runs scripts as a client of the execution service would: with its token, which
  // the endpoint asks of every request it cannot see come from loopback (this app does not listen).
  const server = await createMcpServer({ app, generations: runtime.generations, execToken: () => serverToken(runtime.db) });
  const transport = new StdioServerTransport();
  const closed = new Promise<void>((resolve) => {
    transport.onclose = resolve;
    process.stdin.once('end', resolve);
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  await server.connect(transport);
  log.info({ store: runtime.storeDescription }, 'MCP server on stdio');
  await closed;
  await server.close().catch(() => undefined);
  await app.close();
  endOwned();
  await closeCifPool();
  await runtime.close();
  // A worker thread of an engine must not keep an agent waiting on the process's end.
  exitSoon();
  return 0;
}
