// The cold-start baseline: import @nestjs/core and @nestjs/common (what any Nest app imports).
await import('@nestjs/core');
await import('@nestjs/common');
process.stdout.write('ok\n');
