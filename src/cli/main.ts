#!/usr/bin/env node
import { parseArgs } from 'node:util';
import { ConfigError } from '../server/config.js';
import { SERVICE_IDS } from '../services/ids.js';

export const USAGE = `biomirror: biomedical reference services served from local data

Usage:
  biomirror serve [--port 8080] [--host 127.0.0.1] [--port-per-service] [--limits on|off]
                  [--faults on|off] [--workers N] [--data-dir ./data] [--no-demo] [--config file.json] [--log-level info]
                  --port-per-service also serves each service on a port of its own, --port + 1 to
                  + 14 (8081-8094 with the default --port; \`biomirror services --port N\` lists
                  them), or the one a config file sets ("services": {"pubchem": {"port": 9001}}). A
                  taken port or a data folder another server holds stops the start at once; SIGTERM
                  or SIGINT stops the server within 4 s (in-flight requests get 2.5 s)
  biomirror serve --pull-through [--upstream URL] [--upstream-timeout 30]
                  a miss (a record not loaded, or any answer of a service with nothing loaded) is
                  asked of the real service, answered and kept; kept answers are served from then
                  on, also after restarts. --upstream URL asks another biomirror instead of every
                  real host (chains). Starts without the demo data (docs/pull-through.md)
  biomirror serve --offline   (the default) kept answers and loaded data only, never the network
  biomirror cache list [service] | export [service] --out FILE | import FILE | clear [service]
                  the kept upstream answers: count, size, oldest and newest per service; a JSON-lines
                  file (gzip when FILE ends in .gz) another biomirror imports
  biomirror ingest <service> <file-or-folder> [--dataset name] [--release date] [--batch-size n] [--update]
  biomirror demo [service]   loads the demo data again (of every service, or of one), replacing what is served
  biomirror fetch <service> [dataset] [--limit N] [--ids a,b|@file] [--organism human] [--parts a,b]
                  [--from day] [--to day] [--token t] [--upstream key=url] [--dry-run] [--use-cache]
                  downloads the official bulk files (or harvests the API) and loads them; without
                  arguments it lists what can be fetched (docs/data.md)
  biomirror status [--json]
  biomirror services
  biomirror mcp [--data-dir ./data] [--no-demo] [--config file.json]
                  the Model Context Protocol server over stdio, for agents (the same tools answer
                  over Streamable HTTP at /mcp of a running serve)
  biomirror <service> <command> [args...]   commands of a service, e.g. biomirror protocols add-user

Environment: DATABASE_URL (PostgreSQL instead of the embedded SQLite), REDIS_URL (shared rate-limit
budgets), PORT, HOST, DATA_DIR, BIOMIRROR_LIMITS=on|off (the public services' published limits;
off by default), BIOMIRROR_FAULTS=on|off (honour the X-Biomirror-Fault header), BIOMIRROR_CONFIG,
LOG_LEVEL, BIOMIRROR_PULL_THROUGH=on|off, BIOMIRROR_PULL_THROUGH_UPSTREAM (--upstream of serve),
BIOMIRROR_UPSTREAM_TIMEOUT (seconds), NCBI_API_KEY and NCBI_EMAIL (sent to NCBI by pull-through),
BIOMIRROR_UPSTREAM_<NCBI|EBI|CTGOV|WWPDB|ALPHAFOLD|CLINPGX|BIORXIV|PROTOCOLS> (a mirror
of an upstream for fetch), BIOMIRROR_PROTOCOLS_TOKEN.
`;

const OPTIONS = {
  host: { type: 'string' },
  port: { type: 'string' },
  'port-per-service': { type: 'boolean' },
  limits: { type: 'string' },
  faults: { type: 'string' },
  workers: { type: 'string' },
  'data-dir': { type: 'string' },
  'no-demo': { type: 'boolean' },
  config: { type: 'string' },
  'log-level': { type: 'string' },
  dataset: { type: 'string' },
  release: { type: 'string' },
  'batch-size': { type: 'string' },
  update: { type: 'boolean' },
  limit: { type: 'string' },
  ids: { type: 'string' },
  organism: { type: 'string' },
  parts: { type: 'string' },
  upstream: { type: 'string', multiple: true },
  from: { type: 'string' },
  to: { type: 'string' },
  token: { type: 'string' },
  'dry-run': { type: 'boolean' },
  parallel: { type: 'string' },
  'use-cache': { type: 'boolean' },
  json: { type: 'boolean' },
  'pull-through': { type: 'boolean' },
  offline: { type: 'boolean' },
  'upstream-timeout': { type: 'string' },
  out: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

export type ParsedFlags = ReturnType<typeof parse>['values'];

function parse(argv: string[]) {
  return parseArgs({ args: argv, options: OPTIONS, allowPositionals: true, strict: true });
}

/**
 * A service's own command takes its own options: the platform's (--data-dir, --config, ...) are
 * taken out of the line, everything else is handed to the command as written.
 */
function splitServiceArgs(argv: string[]): { flags: ParsedFlags; rest: string[] } {
  const { values, tokens } = parseArgs({ args: argv, options: OPTIONS, allowPositionals: true, strict: false, tokens: true });
  const known = new Set(Object.keys(OPTIONS));
  const taken = new Set<number>();
  for (const t of tokens) {
    if (t.kind !== 'option' || !known.has(t.name)) continue;
    taken.add(t.index);
    if (t.value !== undefined && !t.inlineValue) taken.add(t.index + 1);
  }
  const flags = Object.fromEntries(Object.entries(values).filter(([k]) => known.has(k))) as ParsedFlags;
  return { flags, rest: argv.filter((_, i) => !taken.has(i)) };
}

export async function main(argv: string[]): Promise<number> {
  const first = argv[0];
  if (first && SERVICE_IDS.includes(first)) {
    const { flags, rest } = splitServiceArgs(argv.slice(1));
    try {
      const { serviceCommand } = await import('./service-command.js');
      return await serviceCommand(first, rest, flags);
    } catch (err) {
      if (err instanceof ConfigError) {
        process.stderr.write(`biomirror: ${err.message}\n`);
        return 2;
      }
      throw err;
    }
  }
  let parsed;
  try {
    parsed = parse(argv);
  } catch (err) {
    process.stderr.write(`${(err as Error).message}\n\n${USAGE}`);
    return 2;
  }
  const [command, ...rest] = parsed.positionals;
  if (parsed.values.help || !command || command === 'help') {
    process.stdout.write(USAGE);
    return command || parsed.values.help ? 0 : 2;
  }
  try {
    // Each command's modules load when it runs: the help and a mistyped command answer at once.
    switch (command) {
      case 'serve':
        return await (await import('./serve.js')).serveCommand(parsed.values);
      case 'ingest':
        return await (await import('./ingest.js')).ingestCommand(rest, parsed.values);
      case 'demo':
        return await (await import('./demo.js')).demoCommand(rest, parsed.values);
      case 'fetch':
        return await (await import('./fetch.js')).fetchCommand(rest, parsed.values);
      case 'status':
        return await (await import('./status.js')).statusCommand(parsed.values);
      case 'services':
        return (await import('./status.js')).servicesCommand(parsed.values);
      case 'mcp':
        return await (await import('./mcp.js')).mcpCommand(parsed.values);
      case 'cache':
        return await (await import('./cache.js')).cacheCommand(rest, parsed.values);
      default:
        process.stderr.write(`unknown command "${command}"\n\n${USAGE}`);
        return 2;
    }
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`biomirror: ${err.message}\n`);
      return 2;
    }
    throw err;
  }
}

// A reader that stops early (`biomirror status | head`) closes the pipe: that ends the output, as for
// any command-line tool, rather than crashing with EPIPE.
process.stdout.on('error', (err: NodeJS.ErrnoException) => {
  if (err.code === 'EPIPE') process.exit(process.exitCode ?? 0);
  throw err;
});

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    process.stderr.write(`biomirror: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exitCode = 1;
  },
);
