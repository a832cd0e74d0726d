/*
 * The bash sandbox's only way out (ADR 0014). The sandbox has a network namespace of its own with
 * nothing but `lo`; the policy proxy of the call also listens on a Unix socket in the proxy
 * kubeconfig's folder, which is bound into the sandbox. bubblewrap starts this script (with the
 * service's own node binary, bound read-only) before the shell:
 *
 *   node sandbox-forwarder PORT SOCKET PROGRAM [ARGUMENT...]
 *
 * It listens on the sandbox's 127.0.0.1:PORT, the address the proxy kubeconfig names, and relays
 * every connection byte for byte to SOCKET: TLS stays end to end between kubectl and the proxy, which
 * still checks its certificate, token and policy. Once it listens it runs PROGRAM (`bash -c LINE`) and
 * exits with its status.
 *
 * Node runs this file as it is inside the sandbox (types stripped from the .ts in development, the
 * compiled .js from dist/): only `node:` built-ins, no imports from src.
 */
import { spawn } from 'node:child_process';
import { connect, createServer, type Socket } from 'node:net';
import { constants } from 'node:os';

/** Relays one connection to the proxy's socket until either side is done. */
function relay(client: Socket, socketPath: string): void {
  const proxy = connect({ path: socketPath, allowHalfOpen: true });
  const end = (): void => {
    client.destroy();
    proxy.destroy();
  };
  client.on('error', end).on('close', end);
  proxy.on('error', end).on('close', end);
  client.pipe(proxy).pipe(client);
}

/** Runs the command with this process's standard streams and exits with its status (128 + signal number when killed). */
function runCommand(program: string, args: string[]): void {
  const child = spawn(program, args, { stdio: 'inherit' });
  child.on('error', (error) => {
    process.stderr.write(`sandbox: could not start ${program}: ${error.message}\n`);
    process.exit(127);
  });
  child.on('exit', (code, signal) => process.exit(code ?? 128 + (signal ? constants.signals[signal] : 0)));
}

function main(argv: string[]): void {
  const [port, socketPath, program, ...args] = argv;
  if (!port || !socketPath || !program || !/^\d+$/.test(port)) {
    process.stderr.write('usage: sandbox-forwarder PORT SOCKET PROGRAM [ARGUMENT...]\n');
    process.exit(2);
  }
  const server = createServer({ allowHalfOpen: true }, (client) => relay(client, socketPath));
  server.on('error', (error) => {
    process.stderr.write(`sandbox: the cluster relay could not listen on 127.0.0.1:${port}: ${error.message}\n`);
    process.exit(1);
  });
  server.listen(Number(port), '127.0.0.1', () => runCommand(program, args));
}

main(process.argv.slice(2));
