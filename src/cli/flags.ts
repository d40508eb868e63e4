import { resolveConfig, type Config } from '../server/config.js';

export interface CommonFlags {
  host?: string | undefined;
  port?: string | undefined;
  'port-per-service'?: boolean | undefined;
  limits?: string | undefined;
  faults?: string | undefined;
  'data-dir'?: string | undefined;
  'no-demo'?: boolean | undefined;
  config?: string | undefined;
  'log-level'?: string | undefined;
}

export function configFrom(flags: CommonFlags): Config {
  return resolveConfig({
    host: flags.host,
    port: flags.port,
    portPerService: flags['port-per-service'],
    limits: flags.limits,
    faults: flags.faults,
    dataDir: flags['data-dir'],
    demo: flags['no-demo'] ? false : undefined,
    config: flags.config,
    logLevel: flags['log-level'],
  });
}
