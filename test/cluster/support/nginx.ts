import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The configuration the docs recommend (docs/nginx-toolkit.conf), used as written. */
const RECOMMENDED = fileURLToPath(new URL('../../../docs/nginx-toolkit.conf', import.meta.url));

/** An nginx balancing over local app processes, in its own temporary prefix. */
export interface Balancer {
  readonly port: number;
  stop(): Promise<void>;
}

/** A free TCP port on 127.0.0.1. */
export async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  server.close();
  await once(server, 'close');
  return port;
}

/**
 * Starts nginx (`/usr/sbin/nginx`, not as a daemon) with the recommended configuration, its
 * upstream servers replaced by `appPorts` and its listen port by a free one.
 */
export async function startBalancer(appPorts: readonly number[]): Promise<Balancer> {
  const port = await freePort();
  const recommended = readFileSync(RECOMMENDED, 'utf8');
  const servers = appPorts
    .map((p) => `    server 127.0.0.1:${p} max_fails=1 fail_timeout=2s;`)
    .join('\n');
  const site = recommended
    .replace(/(?: {4}server 127\.0\.0\.1:\d+ .*\n)+/, `${servers}\n`)
    .replace('listen 8080;', `listen 127.0.0.1:${port};`);
  if (!site.includes(`127.0.0.1:${appPorts[0]}`) || !site.includes(`listen 127.0.0.1:${port}`)) {
    throw new Error(
      'docs/nginx-toolkit.conf no longer has the upstream/listen lines this test fills in',
    );
  }
  const prefix = mkdtempSync(join(tmpdir(), 'toolkit-nginx-'));
  writeFileSync(
    join(prefix, 'nginx.conf'),
    [
      'worker_processes 1;',
      `pid ${join(prefix, 'nginx.pid')};`,
      `error_log ${join(prefix, 'error.log')} warn;`,
      'events { worker_connections 1024; }',
      'http {',
      `  access_log off;`,
      `  client_body_temp_path ${join(prefix, 'body')};`,
      `  proxy_temp_path ${join(prefix, 'proxy')};`,
      site,
      '}',
    ].join('\n'),
  );
  const child: ChildProcess = spawn(
    '/usr/sbin/nginx',
    ['-p', prefix, '-c', join(prefix, 'nginx.conf'), '-g', 'daemon off;'],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  for (let i = 0; i < 100; i += 1) {
    if (child.exitCode !== null) {
      rmSync(prefix, { recursive: true, force: true });
      throw new Error(`nginx exited: ${stderr}`);
    }
    const up = await fetch(`http://127.0.0.1:${port}/`).then(
      () => true,
      () => false,
    );
    if (up) break;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return {
    port,
    stop: async () => {
      if (child.exitCode === null) {
        child.kill('SIGQUIT');
        await once(child, 'exit');
      }
      rmSync(prefix, { recursive: true, force: true });
    },
  };
}
