import { ConfigError, resolveConfig, type Config } from '../server/config.js';

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
  'pull-through'?: boolean | undefined;
  offline?: boolean | undefined;
  'upstream-timeout'?: string | undefined;
}

/** `upstream`: serve's `--upstream URL` (fetch reads its `--upstream key=url` itself). */
export function configFrom(flags: CommonFlags, upstream?: string): Config {
  if (flags['pull-through'] && flags.offline) throw new ConfigError('--pull-through and --offline exclude each other');
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
    pullThrough: flags['pull-through'] ? true : flags.offline ? false : undefined,
    upstream,
    upstreamTimeout: flags['upstream-timeout'],
  });
}
