import { findService } from '../services/registry.js';
import { sourceOf } from './fetch/sources/index.js';
import type { ServiceModule } from '../services/types.js';
import { createLogger, openRuntime } from '../server/serve.js';
import { configFrom, type CommonFlags } from './flags.js';

/** `biomirror <service> <command> [args...]`: a service's own command, on the configured store. */
export async function serviceCommand(serviceId: string, args: string[], flags: CommonFlags): Promise<number> {
  const service = findService(serviceId);
  const commands = service?.commands ?? {};
  const [name, ...rest] = args;
  const cmd = name ? commands[name] : undefined;
  if (!service) {
    process.stderr.write(`unknown service "${serviceId}"\n`);
    return 2;
  }
  if (!name) {
    process.stdout.write(aboutService(service));
    return 0;
  }
  if (!cmd) {
    process.stderr.write(`unknown command "${name}"\n${aboutService(service)}`);
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

/** What `biomirror <service>` prints: where the service answers, how its data is loaded, its own commands. */
export function aboutService(service: ServiceModule): string {
  const out = [`${service.id}: ${service.title}, served under ${service.mount}`];
  if (service.datasets.length > 0) {
    out.push('load its data:');
    for (const d of service.datasets) {
      out.push(`  biomirror ingest ${service.id} <file-or-folder>${service.datasets.length > 1 ? ` --dataset ${d.name}` : ''}`);
    }
    const fetchable = service.datasets.filter((d) => sourceOf(service.id, d.name));
    if (fetchable.length > 0) {
      out.push('or download it from the upstream and load it:');
      for (const d of fetchable) out.push(`  biomirror fetch ${service.id}${service.datasets.length > 1 ? ` ${d.name}` : ''}`);
    }
  } else {
    out.push('it loads no data of its own (see biomirror services)');
  }
  const commands = Object.entries(service.commands ?? {});
  if (commands.length > 0) {
    out.push(`commands of ${service.id}:`);
    for (const [n, c] of commands) out.push(`  biomirror ${service.id} ${n} ${c.usage}`);
  } else {
    out.push(`${service.id} has no commands of its own`);
  }
  return `${out.join('\n')}\n`;
}
