// `toolkit/testing`: what an application's tests import. The list is pinned by
// test/api/entry-points.e2e-spec.ts (snapshot: test/api/entry-points.json).
import 'reflect-metadata';

// In-process HTTP client (no socket) and the answers it gives.
export { TestClient } from './test-client.js';
export type { TestTarget, RequestOptions, BodyRequestOptions } from './test-client.js';
export { TestResponse } from './test-response.js';
export { multipartBody } from './multipart-body.js';
export type { TestFile } from './multipart-body.js';

// Reading Server-Sent Events as a client does (`TestResponse.events()` uses it).
export { SseParser, parseSse } from './sse-parser.js';
export type { SseEvent } from './sse-parser.js';

// Mocks that record every call, in place of the real LLM and conversation memory.
export { MockLLM, MOCK_EMBEDDING_SIZE } from './mock-llm.js';
export type {
  MockLlmCall,
  MockLlmOptions,
  MockLlmResponder,
  MockLlmResponse,
  MockToolCalls,
} from './mock-llm.js';
export { MockMemory } from './mock-memory.js';
export type { MockMemoryCall, MockMemoryOptions } from './mock-memory.js';

// Ready-made apps: a Nest testing module with the mocks in place, and a tiny demo app.
export { createTestingApp, createTestingModule } from './testing-app.js';
export type { TestingApp, TestingAppOptions } from './testing-app.js';
export { createMockApp } from './mock-app.js';
export { testingFixtures } from './testing-fixtures.js';
export type { TestingFixtures } from './testing-fixtures.js';
