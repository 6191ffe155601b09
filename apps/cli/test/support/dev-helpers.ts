import { afterEach } from '@jest/globals';
import type { CliProcess } from './cli-process.js';
import type { TempProject } from './temp-project.js';

/** An app using Nest dependency injection by type: it only works when decorator metadata is emitted. */
export const DI_APP = `import { Controller, Injectable } from '@nestjs/common';
import { App, Route } from 'toolkit';
import { greeting } from './greeting.js';

@Injectable()
export class Greeter {
  greet(): string {
    return greeting;
  }
}

@Controller()
export class GreetController {
  constructor(private readonly greeter: Greeter) {}

  @Route('/greet', { methods: ['GET'] })
  greet() {
    return { message: this.greeter.greet() };
  }
}

export const app = new App({ title: 'di-demo', version: '2.0.0', controllers: [GreetController], providers: [Greeter] });
app.route('/health', { methods: ['GET'] }, () => ({ status: 'healthy' }));
`;

/** Environment without provider keys, so the banner's LLM line is predictable. */
export function cleanEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const env = { ...process.env, ...extra };
  for (const name of Object.keys(env)) {
    if (/_API_KEY$/.test(name) && !(name in extra)) delete env[name];
    if (name.startsWith('TOOLKIT_')) delete env[name];
  }
  return env;
}

export async function getJson(url: string): Promise<{ status: number; body: unknown }> {
  const response = await fetch(url);
  return { status: response.status, body: await response.json() };
}

/** What {@link cleanAfterEach} gives a describe block. */
export interface TestResources {
  /** Removes the project after the test. */
  track: (project: TempProject) => TempProject;
  /** Kills the process after the test if it still runs (before any project is removed). */
  watch: (cli: CliProcess) => CliProcess;
}

/**
 * Cleans up after each test of the calling describe block: CLI processes still running are
 * killed first (newest first), then temporary projects are removed.
 */
export function cleanAfterEach(): TestResources {
  const cleanups: Array<() => void | Promise<void>> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0)) await cleanup();
  });
  return {
    track: (project) => {
      cleanups.push(() => project.cleanup());
      return project;
    },
    watch: (cli) => {
      cleanups.unshift(async () => {
        if (cli.child.exitCode === null && cli.child.signalCode === null) {
          cli.child.kill('SIGKILL');
          await cli.exited;
        }
      });
      return cli;
    },
  };
}
