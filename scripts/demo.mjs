// `npm start`, the README's first command: a chat app with memory and streaming on the offline
// `echo` model, made by our own `toolkit new` (once, into .demo/chat), installed, and served with
// `toolkit dev`, which prints the URL of the chat page. Delete .demo/ to start afresh.
// PORT and HOST choose where it listens (default 127.0.0.1:8000).
//
// Killing `npm start` by its process id stops the server too: npm passes the signal to the shell
// it ran this script in, not to this script, so this script watches for its parent to go (it is
// then adopted by another process) and stops the server as it would on Ctrl+C.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const cli = join(root, 'dist/apps/cli/src/main.js');
const parent = join(root, '.demo');
const project = join(parent, 'chat');
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

function run(command, args, cwd, what) {
  process.stdout.write(`\n> ${what}\n`);
  const result = spawnSync(command, args, { cwd, stdio: 'inherit' });
  if (result.status !== 0) {
    process.stderr.write(`npm start: ${what} failed (exit ${result.status ?? result.signal})\n`);
    process.exit(1);
  }
}

run(npm, ['run', 'build'], root, 'npm run build (toolkit itself)');

if (!existsSync(join(project, 'package.json'))) {
  mkdirSync(parent, { recursive: true });
  run(
    process.execPath,
    [cli, 'new', 'chat', '--template', 'chatbot', '--directory', parent],
    root,
    'toolkit new chat --template chatbot',
  );
}
if (!existsSync(join(project, 'node_modules'))) {
  run(
    npm,
    ['install', '--no-audit', '--no-fund', '--prefer-offline'],
    project,
    'npm install (in .demo/chat)',
  );
}

const port = process.env.PORT ?? '8000';
const host = process.env.HOST ?? '127.0.0.1';
process.stdout.write(`\n> toolkit dev: the chat page will be at http://${host}:${port}/\n`);
const server = spawn(process.execPath, [cli, 'dev', '--port', port, '--host', host], {
  cwd: project,
  stdio: 'inherit',
});
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.kill(signal));
const parentPid = process.ppid;
setInterval(() => {
  if (process.ppid !== parentPid) server.kill('SIGTERM');
}, 500).unref();
server.on('exit', (code, signal) => process.exit(code ?? (signal ? 0 : 1)));
