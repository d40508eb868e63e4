// The first process inside the sandbox. The sandbox has no network but its own loopback: this
// opens the proxy's port there, forwarding each connection to the proxy's Unix socket bound in from
// outside, then runs the script (its arguments as given, no shell) and exits with its status.
// Usage: node entry.mjs <proxy socket> <port> <program> [args...]
import { spawn } from 'node:child_process';
import { connect, createServer } from 'node:net';
import { constants } from 'node:os';
import process from 'node:process';

const [socketPath, port, program, ...args] = process.argv.slice(2);

const forwarder = createServer((client) => {
  const upstream = connect(socketPath);
  client.on('error', () => upstream.destroy());
  upstream.on('error', () => client.destroy());
  client.pipe(upstream);
  upstream.pipe(client);
});
forwarder.on('error', (err) => {
  process.stderr.write(`sandbox: cannot open the proxy port: ${err.message}\n`);
  process.exit(126);
});
forwarder.listen(Number(port), '127.0.0.1', () => {
  const child = spawn(program, args, { stdio: 'inherit' });
  child.on('error', (err) => {
    process.stderr.write(`sandbox: cannot start ${program}: ${err.message}\n`);
    process.exit(127);
  });
  child.on('exit', (code, signal) => process.exit(code ?? 128 + (signal ? (constants.signals[signal] ?? 0) : 0)));
});
