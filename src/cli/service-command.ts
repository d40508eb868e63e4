import { findService } from '../services/registry.js';
import { createLogger, openRuntime } from '../server/serve.js';
import { configFrom, type CommonFlags } from './flags.js';

/** `biomirror <service> <command> [args...]`: a service's own command, on the configured store. */
export async function serviceCommand(serviceId: string, args: string[], flags: CommonFlags): Promise<number> {
  const service = findService(serviceId);
  const commands = service?.commands ?? {};
  const [name, ...rest] = args;
  const cmd = name ? commands[name] : undefined;
  if (!service || !cmd) {
    const lines = Object.entries(commands).map(([n, c]) => `  biomirror ${serviceId} ${n} ${c.usage}`);
    process.stderr.write(`${name ? `unknown command "${name}"\n` : ''}commands of ${serviceId}:\n${lines.join('\n')}\n`);
    return 2;
  }
  const log = createLogger('warn');
  const rt = await openRuntime(configFrom(flags), [service], log);
  try {
    return await cmd.run(rest, { db: rt.db, generations: rt.generations, log }, (line) => process.stdout.write(`${line}\n`));
  } finally {
    await rt.close();
  }
}
