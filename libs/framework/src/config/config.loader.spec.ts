import { afterEach, describe, expect, it } from '@jest/globals';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError } from '../../../providers/src/errors/config.error.js';
import { loadConfig } from './config.loader.js';

const dirs: string[] = [];
function project(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'toolkit-config-'));
  dirs.push(dir);
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return dir;
}
afterEach(() => dirs.splice(0).forEach((dir) => rmSync(dir, { recursive: true, force: true })));

function failure(run: () => unknown): ConfigError {
  try {
    run();
  } catch (error) {
    if (error instanceof ConfigError) return error;
    throw error;
  }
  throw new Error('expected a ConfigError');
}

describe('loadConfig', () => {
  it('gives every documented default without a file', () => {
    const config = loadConfig({ cwd: project({}), env: {} });
    expect(config.app).toEqual({
      name: 'toolkit-app',
      debug: false,
      body_limit: 1048576,
      upload_limit: 20971520,
      sse_heartbeat: 15,
      shutdown_grace: 5,
      session_secret: '',
      trust_proxy: false,
      access_log: false,
      log_format: 'text',
      platform: 'express',
      headers_timeout: 20,
      request_timeout: 60,
      keep_alive_timeout: 5,
      max_connections: 10_000,
      max_connections_per_address: 256,
    });
    expect(config.llm).toMatchObject({ default_model: 'auto', temperature: 0.7, max_tokens: 1024 });
    expect(config.cache).toMatchObject({ enabled: true, backend: 'memory', ttl: 300 });
    expect(config.memory).toMatchObject({ backend: 'memory', max_history: 100 });
  });

  it('reads toolkit.yaml and keeps unknown sections as extra', () => {
    const cwd = project({
      'toolkit.yaml':
        'llm:\n  default_model: gpt-4o-mini\n  temperature: 0.2\ncache:\n  backend: redis\nstyles:\n  pirate: Talk like a pirate\n',
    });
    const config = loadConfig({ cwd, env: {} });
    expect(config.llm.default_model).toBe('gpt-4o-mini');
    expect(config.llm.temperature).toBe(0.2);
    expect(config.cache.backend).toBe('redis');
    expect(config.extra).toEqual({ styles: { pirate: 'Talk like a pirate' } });
  });

  it('fails with one line naming cache.ttl and the file for a wrong type', () => {
    const cwd = project({ 'toolkit.yaml': 'cache:\n  ttl: "abc"\n' });
    const error = failure(() => loadConfig({ cwd, env: {} }));
    expect(error.message).toBe(
      'Invalid configuration: cache.ttl must be an integer (got "abc") in toolkit.yaml',
    );
    expect(error.message).not.toContain('\n');
  });

  it('reads app.platform from the App options, toolkit.yaml and TOOLKIT_APP_PLATFORM', () => {
    const overrides = { app: { platform: 'fastify' as const } };
    expect(loadConfig({ cwd: project({}), env: {}, overrides }).app.platform).toBe('fastify');
    const yaml = project({ 'toolkit.yaml': 'app:\n  platform: express\n' });
    expect(loadConfig({ cwd: yaml, env: {}, overrides }).app.platform).toBe('express');
    const env = { TOOLKIT_APP_PLATFORM: 'fastify' };
    expect(loadConfig({ cwd: yaml, env }).app.platform).toBe('fastify');
  });

  it('fails naming app.platform and its source for a platform toolkit does not run on', () => {
    const yaml = project({ 'toolkit.yaml': 'app:\n  platform: koa\n' });
    expect(failure(() => loadConfig({ cwd: yaml, env: {} })).message).toBe(
      'Invalid configuration: app.platform must be one of express, fastify (got "koa") in toolkit.yaml',
    );
    const env = { TOOLKIT_APP_PLATFORM: 'hono' };
    expect(failure(() => loadConfig({ cwd: project({}), env })).message).toBe(
      'Invalid configuration: app.platform must be one of express, fastify (got "hono") in the environment (TOOLKIT_APP_PLATFORM)',
    );
  });

  it('reads telemetry.metrics (off by default) and its token from TOOLKIT_TELEMETRY_*', () => {
    expect(loadConfig({ cwd: project({}), env: {} }).telemetry).toEqual({
      metrics: false,
      metrics_token: '',
      metrics_cost_by_user: false,
      enabled: false,
      record_content: false,
      service_name: '',
      http_instrumentation: true,
    });
    const env = {
      TOOLKIT_TELEMETRY_METRICS: 'true',
      TOOLKIT_TELEMETRY_METRICS_TOKEN: 's3cret',
      TOOLKIT_TELEMETRY_METRICS_COST_BY_USER: '1',
    };
    expect(loadConfig({ cwd: project({}), env }).telemetry).toMatchObject({
      metrics: true,
      metrics_token: 's3cret',
      metrics_cost_by_user: true,
    });
    expect(
      failure(() => loadConfig({ cwd: project({}), env: { TOOLKIT_TELEMETRY_METRICS: 'maybe' } }))
        .message,
    ).toContain('telemetry.metrics');
  });

  it('reads the tracing keys telemetry.enabled, record_content and service_name', () => {
    const yaml = project({ 'toolkit.yaml': 'telemetry:\n  enabled: true\n  service_name: shop\n' });
    const env = { TOOLKIT_TELEMETRY_RECORD_CONTENT: 'true' };
    expect(loadConfig({ cwd: yaml, env }).telemetry).toMatchObject({
      enabled: true,
      record_content: true,
      service_name: 'shop',
    });
    expect(
      failure(() => loadConfig({ cwd: project({}), env: { TOOLKIT_TELEMETRY_ENABLED: 'sure' } }))
        .message,
    ).toContain('telemetry.enabled');
  });

  it('reads app.log_format and app.access_log from toolkit.yaml and TOOLKIT_APP_*', () => {
    const yaml = project({ 'toolkit.yaml': 'app:\n  log_format: json\n  access_log: true\n' });
    expect(loadConfig({ cwd: yaml, env: {} }).app).toMatchObject({
      log_format: 'json',
      access_log: true,
    });
    const env = { TOOLKIT_APP_LOG_FORMAT: 'text', TOOLKIT_APP_ACCESS_LOG: 'false' };
    expect(loadConfig({ cwd: yaml, env }).app).toMatchObject({
      log_format: 'text',
      access_log: false,
    });
    expect(
      failure(() => loadConfig({ cwd: project({}), env: { TOOLKIT_APP_LOG_FORMAT: 'xml' } }))
        .message,
    ).toBe(
      'Invalid configuration: app.log_format must be one of text, json (got "xml") in the environment (TOOLKIT_APP_LOG_FORMAT)',
    );
  });

  it('fails on an unknown value, an unknown key and broken YAML', () => {
    const bad = project({ 'toolkit.yaml': 'memory:\n  backend: mongo\n' });
    expect(failure(() => loadConfig({ cwd: bad, env: {} })).message).toMatch(
      /memory\.backend must be one of memory, redis, postgres \(got "mongo"\) in toolkit\.yaml/,
    );
    const typo = project({ 'toolkit.yaml': 'memory:\n  max_histroy: 5\n' });
    expect(failure(() => loadConfig({ cwd: typo, env: {} })).message).toMatch(
      /memory\.max_histroy is not a known key/,
    );
    const broken = project({ 'toolkit.yaml': 'cache: [unclosed\n' });
    expect(failure(() => loadConfig({ cwd: broken, env: {} })).message).toMatch(
      /is not valid YAML/,
    );
  });

  it('lets TOOLKIT_<SECTION>_<KEY> override the file, converting the text', () => {
    const cwd = project({ 'toolkit.yaml': 'llm:\n  default_model: claude-3-5-haiku-latest\n' });
    const config = loadConfig({
      cwd,
      env: {
        TOOLKIT_LLM_DEFAULT_MODEL: 'x',
        TOOLKIT_CACHE_TTL: '5',
        TOOLKIT_CACHE_ENABLED: 'false',
        TOOLKIT_CACHE_REDIS_URL: 'redis://h:1',
      },
    });
    expect(config.llm.default_model).toBe('x');
    expect(config.cache).toMatchObject({ ttl: 5, enabled: false, redis_url: 'redis://h:1' });
  });

  it('names the variable when an environment override is bad', () => {
    const error = failure(() =>
      loadConfig({ cwd: project({}), env: { TOOLKIT_MEMORY_MAX_HISTORY: 'lots' } }),
    );
    expect(error.message).toBe(
      'Invalid configuration: memory.max_history must be an integer (got "lots") in the environment (TOOLKIT_MEMORY_MAX_HISTORY)',
    );
  });

  it('bounds memory by default: 10000 conversations, 24 h idle, 2 s timeouts', () => {
    const config = loadConfig({ cwd: project({}), env: {} });
    expect(config.memory).toMatchObject({ max_conversations: 10_000, ttl: 86_400, timeout: 2 });
    expect(config.cache.timeout).toBe(2);
  });

  it('reads durations as seconds or with a unit, from the file and the environment', () => {
    const cwd = project({
      'toolkit.yaml':
        'memory:\n  ttl: 30m\n  timeout: 500ms\n  max_conversations: 50\ncache:\n  timeout: 1.5\n',
    });
    const config = loadConfig({ cwd, env: {} });
    expect(config.memory).toMatchObject({ ttl: 1800, timeout: 0.5, max_conversations: 50 });
    expect(config.cache.timeout).toBe(1.5);
    const fromEnv = loadConfig({
      cwd,
      env: { TOOLKIT_MEMORY_TTL: '24h', TOOLKIT_MEMORY_TIMEOUT: '3', TOOLKIT_CACHE_TIMEOUT: '2s' },
    });
    expect(fromEnv.memory).toMatchObject({ ttl: 86_400, timeout: 3 });
    expect(fromEnv.cache.timeout).toBe(2);
    expect(loadConfig({ cwd, env: { TOOLKIT_MEMORY_TTL: '7d' } }).memory.ttl).toBe(604_800);
    expect(loadConfig({ cwd, env: { TOOLKIT_MEMORY_TTL: '0' } }).memory.ttl).toBe(0);
  });

  it.each([
    [
      'memory:\n  max_conversations: lots\n',
      'memory.max_conversations must be an integer (got "lots") in toolkit.yaml',
    ],
    [
      'memory:\n  max_conversations: 0\n',
      'memory.max_conversations must be at least 1 (got 0) in toolkit.yaml',
    ],
    [
      'memory:\n  ttl: forever\n',
      'memory.ttl must be a duration in seconds such as 90, "500ms", "30m" or "24h" (got "forever") in toolkit.yaml',
    ],
    ['memory:\n  ttl: -5\n', 'memory.ttl must be at least 0 (got -5) in toolkit.yaml'],
    [
      'memory:\n  timeout: [2]\n',
      'memory.timeout must be a duration in seconds such as 90, "500ms", "30m" or "24h" (got [2]) in toolkit.yaml',
    ],
    ['memory:\n  timeout: 0\n', 'memory.timeout must be at least 0.001 (got 0) in toolkit.yaml'],
    [
      'cache:\n  timeout: 2 weeks\n',
      'cache.timeout must be a duration in seconds such as 90, "500ms", "30m" or "24h" (got "2 weeks") in toolkit.yaml',
    ],
  ])('fails at start-up naming the key and the file: %p', (yaml, message) => {
    const error = failure(() => loadConfig({ cwd: project({ 'toolkit.yaml': yaml }), env: {} }));
    expect(error.message).toBe(`Invalid configuration: ${message}`);
  });

  it.each([
    [
      'TOOLKIT_MEMORY_MAX_CONVERSATIONS',
      '1e9x',
      'memory.max_conversations must be an integer (got "1e9x")',
    ],
    [
      'TOOLKIT_MEMORY_TTL',
      '24 hours',
      'memory.ttl must be a duration in seconds such as 90, "500ms", "30m" or "24h" (got "24 hours")',
    ],
    [
      'TOOLKIT_MEMORY_TIMEOUT',
      'soon',
      'memory.timeout must be a duration in seconds such as 90, "500ms", "30m" or "24h" (got "soon")',
    ],
  ])('fails at start-up naming the key and the variable: %s=%s', (name, value, message) => {
    const error = failure(() => loadConfig({ cwd: project({}), env: { [name]: value } }));
    expect(error.message).toBe(`Invalid configuration: ${message} in the environment (${name})`);
  });

  it('reads DEBUG and .env without overriding variables already set', () => {
    const cwd = project({ '.env': 'DEBUG=true\nOPENAI_API_KEY=<API_KEY>\nTOOLKIT_CACHE_TTL=9\n' });
    const env: NodeJS.ProcessEnv = { TOOLKIT_CACHE_TTL: '7' };
    const config = loadConfig({ cwd, env });
    expect(config.app.debug).toBe(true);
    expect(config.cache.ttl).toBe(7);
    expect(env.OPENAI_API_KEY).toBe('<API_KEY>');
  });

  it('accepts sizes with units for app.body_limit and code overrides below the file', () => {
    const cwd = project({ 'toolkit.yaml': 'app:\n  body_limit: 2mb\n' });
    const config = loadConfig({
      cwd,
      env: {},
      overrides: { app: { body_limit: 10, name: 'mine' } },
    });
    expect(config.app.body_limit).toBe(2 * 1024 * 1024);
    expect(config.app.name).toBe('mine');
  });

  it('refuses a size unit that only an object inherits ("5constructor")', () => {
    const cwd = project({ 'toolkit.yaml': 'app:\n  body_limit: 5constructor\n' });
    expect(() => loadConfig({ cwd, env: {} })).toThrow(
      'Invalid configuration: app.body_limit must be a size such as 1048576, "512kb" or "2mb" (got "5constructor") in toolkit.yaml',
    );
  });

  it('reads the connection limits from toolkit.yaml and TOOLKIT_APP_* variables', () => {
    const cwd = project({
      'toolkit.yaml':
        'app:\n  request_timeout: 2m\n  max_connections: 50\n  headers_timeout: 500ms\n',
    });
    const env = {
      TOOLKIT_APP_MAX_CONNECTIONS_PER_ADDRESS: '7',
      TOOLKIT_APP_KEEP_ALIVE_TIMEOUT: '65',
    };
    expect(loadConfig({ cwd, env }).app).toMatchObject({
      request_timeout: 120,
      headers_timeout: 0.5,
      keep_alive_timeout: 65,
      max_connections: 50,
      max_connections_per_address: 7,
    });
    const bad = project({ 'toolkit.yaml': 'app:\n  max_connections: -1\n' });
    expect(() => loadConfig({ cwd: bad, env: {} })).toThrow(/app\.max_connections/);
  });

  it('leaves DEBUG patterns of the debug package (express:*) to it, and still reads DEBUG switches', () => {
    for (const pattern of ['express:*', '*', 'express:router,toolkit']) {
      expect(loadConfig({ cwd: project({}), env: { DEBUG: pattern } }).app.debug).toBe(false);
    }
    expect(loadConfig({ cwd: project({}), env: { DEBUG: 'yes' } }).app.debug).toBe(true);
    const yaml = project({ 'toolkit.yaml': 'app:\n  debug: true\n' });
    expect(loadConfig({ cwd: yaml, env: { DEBUG: 'express:*' } }).app.debug).toBe(true);
  });

  it('takes REDIS_URL and DATABASE_URL as backend URL defaults; file and TOOLKIT_* win', () => {
    const env = { REDIS_URL: 'redis://cache.internal:6380', DATABASE_URL: 'postgres://db/app' };
    const plain = loadConfig({ cwd: project({}), env: { ...env } });
    expect(plain.cache.redis_url).toBe('redis://cache.internal:6380');
    expect(plain.memory.redis_url).toBe('redis://cache.internal:6380');
    expect(plain.memory.postgres_url).toBe('postgres://db/app');

    const cwd = project({ 'toolkit.yaml': 'memory:\n  postgres_url: postgres://file/db\n' });
    const layered = loadConfig({
      cwd,
      env: { ...env, TOOLKIT_CACHE_REDIS_URL: 'redis://override:1' },
    });
    expect(layered.memory.postgres_url).toBe('postgres://file/db');
    expect(layered.cache.redis_url).toBe('redis://override:1');
    expect(layered.memory.redis_url).toBe('redis://cache.internal:6380');
    expect(loadConfig({ cwd: project({}), env: { REDIS_URL: ' ' } }).memory.redis_url).toBe(
      'redis://127.0.0.1:6379',
    );
  });

  it('reads REDIS_URL and DATABASE_URL from .env too', () => {
    const cwd = project({ '.env': 'REDIS_URL=redis://from-dotenv:6379\n' });
    expect(loadConfig({ cwd, env: {} }).memory.redis_url).toBe('redis://from-dotenv:6379');
  });
});

describe('loadConfig: the rag: section', () => {
  it('has a default for every key and is no longer an extra section', () => {
    const config = loadConfig({ cwd: project({}), env: {} });
    expect(config.rag).toEqual({
      embeddings: 'auto',
      embedding_dimensions: null,
      store: 'local',
      index: 'auto',
      postgres_url: 'postgres://127.0.0.1:5432/postgres',
      postgres_table: 'toolkit_rag',
      chunk_size: 1000,
      chunk_overlap: 150,
      max_top_k: 20,
      min_keyword_coverage: 0.15,
      min_similarity: null,
      documents_dir: 'docs/documents',
      index_dir: '.toolkit/index',
      queue: '',
      ingest_timeout: 60,
      ingest_memory: 512 * 1024 * 1024,
      ingest_workers: 1,
      ingest_max_inflated: 64 * 1024 * 1024,
    });
    const cwd = project({ 'toolkit.yaml': 'rag:\n  store: pgvector\n  min_similarity: 0.3\n' });
    const config2 = loadConfig({ cwd, env: {} });
    expect(config2.rag).toMatchObject({ store: 'pgvector', min_similarity: 0.3 });
    expect(config2.extra).toEqual({});
  });

  it('takes TOOLKIT_RAG_* overrides, an empty one unsetting a nullable key', () => {
    const cwd = project({ 'toolkit.yaml': 'rag:\n  min_similarity: 0.3\n  chunk_size: 800\n' });
    const config = loadConfig({
      cwd,
      env: {
        TOOLKIT_RAG_MIN_SIMILARITY: '',
        TOOLKIT_RAG_CHUNK_SIZE: '1200',
        TOOLKIT_RAG_EMBEDDING_DIMENSIONS: '768',
        DATABASE_URL: 'postgres://db/app',
      },
    });
    expect(config.rag).toMatchObject({
      min_similarity: null,
      chunk_size: 1200,
      embedding_dimensions: 768,
      postgres_url: 'postgres://db/app',
    });
  });

  it.each([
    [
      'rag:\n  store: qdrant\n',
      'rag.store must be one of local, pgvector (got "qdrant") in toolkit.yaml',
    ],
    [
      'rag:\n  min_keyword_coverage: 1.5\n',
      'rag.min_keyword_coverage must be at most 1 (got 1.5) in toolkit.yaml',
    ],
    [
      'rag:\n  min_similarity: high\n',
      'rag.min_similarity must be a number (got "high") in toolkit.yaml',
    ],
    [
      'rag:\n  postgres_table: Docs-Table\n',
      'rag.postgres_table must be lower-case letters, digits and _ (got "Docs-Table") in toolkit.yaml',
    ],
    [
      'rag:\n  documents_dir: " "\n',
      'rag.documents_dir must be a non-empty string (got " ") in toolkit.yaml',
    ],
    [
      'rag:\n  queue: "jobs queue"\n',
      'rag.queue must be letters, digits, ".", "_" or "-" (got "jobs queue") in toolkit.yaml',
    ],
    ['rag:\n  chunk_size: 10\n', 'rag.chunk_size must be at least 50 (got 10) in toolkit.yaml'],
    [
      'rag:\n  index: hnsw\n',
      'rag.index must be one of auto, exact, ivf (got "hnsw") in toolkit.yaml',
    ],
    ['rag:\n  embedding_dimnsions: 768\n', 'rag.embedding_dimnsions is not a known key'],
  ])('refuses %j with one line naming the key', (yaml, message) => {
    const error = failure(() => loadConfig({ cwd: project({ 'toolkit.yaml': yaml }), env: {} }));
    expect(error.message).toContain(message);
    expect(error.message).not.toContain('\n');
  });

  it('refuses an overlap not smaller than the chunk, naming where the overlap came from', () => {
    const file = project({ 'toolkit.yaml': 'rag:\n  chunk_size: 400\n  chunk_overlap: 400\n' });
    expect(failure(() => loadConfig({ cwd: file, env: {} })).message).toBe(
      'Invalid configuration: rag.chunk_overlap must be smaller than rag.chunk_size (400 >= 400) in toolkit.yaml',
    );
    const env = { TOOLKIT_RAG_CHUNK_SIZE: '100' };
    expect(failure(() => loadConfig({ cwd: project({}), env })).message).toBe(
      'Invalid configuration: rag.chunk_overlap must be smaller than rag.chunk_size (150 >= 100) in the environment (TOOLKIT_RAG_CHUNK_SIZE)',
    );
  });
});
