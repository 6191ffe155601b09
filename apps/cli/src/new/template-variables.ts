import { randomBytes } from 'node:crypto';
import type { HttpPlatformChoice } from './http-platform-choice.js';
import type { ProjectDependencies } from './project-dependencies.js';
import type { ProjectTemplate } from './project-templates.js';

/** The values the handlebars templates in `templates/` are rendered with. */
export interface TemplateVariables extends ProjectDependencies {
  /** Project (folder and npm package) name. */
  name: string;
  /** One line for `package.json`. */
  description: string;
  /** Environment variable of the provider key, e.g. `OPENAI_API_KEY`. */
  keyVar: string;
  /** Provider name for people, e.g. `OpenAI`. */
  providerLabel: string;
  /** Extra `KEY=value` lines for `.env`. */
  extraEnv: string[];
  /** The toolkit's package name, from its `package.json`: what READMEs name and link to. */
  toolkitName: string;
  /** HTTP platform (`app.platform`). */
  platform: HttpPlatformChoice;
  /** True on Fastify: toolkit.yaml says `platform: fastify`. */
  fastify: boolean;
}

/** Choices of `toolkit new` beyond the template. */
export interface ProjectChoices {
  /** @default 'express' */
  platform?: HttpPlatformChoice;
  /** Makes the project's secrets. @default 32 random bytes as hex */
  newKey?: KeyGenerator;
}

/** `package.json` description of each template's projects. */
export const TEMPLATE_DESCRIPTIONS: Readonly<Record<ProjectTemplate, string>> = {
  chatbot: 'A chatbot with per-user memory, streamed answers and a chat page, built with toolkit.',
  rag: 'Questions answered from your documents (retrieval-augmented generation), built with toolkit.',
  agent:
    'An agent that chats using tools (calculator, clock, notes), analyses text and writes in configurable styles, built with toolkit.',
  api: 'A REST API over a language model with API keys, CORS and rate limits, built with toolkit.',
};

/** Provider whose key the generated `.env` asks for (the provider client library is `openai`). */
export const DEFAULT_PROVIDER = { keyVar: 'OPENAI_API_KEY', label: 'OpenAI' } as const;

/** Makes a fresh secret API key: 32 random bytes as hex. */
export type KeyGenerator = () => string;

const randomKey: KeyGenerator = () => randomBytes(32).toString('hex');

/**
 * `.env` lines a template needs beyond the provider key and `DEBUG`: the api template gets a
 * freshly generated API key (never a fixed one every project would share), open CORS and a rate
 * limit; the others, whose conversations belong to a session cookie, a fresh key that signs it
 * (so sessions survive restarts and every instance recognises them).
 */
export function extraEnvLines(
  template: ProjectTemplate,
  newKey: KeyGenerator = randomKey,
): string[] {
  if (template !== 'api') return [`TOOLKIT_APP_SESSION_SECRET=${newKey()}`];
  return [`API_KEYS=${newKey()}`, 'CORS_ORIGINS=*', 'RATE_LIMIT_PER_MINUTE=60'];
}

/**
 * Everything a template is rendered with, for project `name`.
 *
 * @example
 * templateVariables('my-bot', 'chatbot', projectDependencies(toolkit, 'chatbot'), toolkit.name);
 */
export function templateVariables(
  name: string,
  template: ProjectTemplate,
  dependencies: ProjectDependencies,
  toolkitName: string,
  choices: ProjectChoices = {},
): TemplateVariables {
  const platform = choices.platform ?? 'express';
  return {
    name,
    description: TEMPLATE_DESCRIPTIONS[template],
    keyVar: DEFAULT_PROVIDER.keyVar,
    providerLabel: DEFAULT_PROVIDER.label,
    ...dependencies,
    extraEnv: extraEnvLines(template, choices.newKey ?? randomKey),
    toolkitName,
    platform,
    fastify: platform === 'fastify',
  };
}
