// The public surface of `toolkit/testing`.
import 'reflect-metadata';

export { TestClient } from './test-client.js';
export type { TestTarget, RequestOptions, BodyRequestOptions } from './test-client.js';
export { TestResponse } from './test-response.js';
export { multipartBody } from './multipart-body.js';
export type { TestFile } from './multipart-body.js';
export { createMockApp } from './mock-app.js';
export { MockMemory } from './mock-memory.js';
export { MockLLM, MOCK_EMBEDDING_SIZE } from './mock-llm.js';
export type { MockLlmCall, MockLlmOptions, MockLlmResponder, MockLlmResponse } from './mock-llm.js';
export { createTestingApp, createTestingModule } from './testing-app.js';
export type { TestingApp, TestingAppOptions } from './testing-app.js';
export { testingFixtures } from './testing-fixtures.js';
export type { TestingFixtures } from './testing-fixtures.js';
export type { MockMemoryCall, MockMemoryOptions } from './mock-memory.js';
export type { SseEvent } from '../../framework/src/sse/sse-parser.js';
