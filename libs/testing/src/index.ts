// The public surface of `toolkit/testing`.
import 'reflect-metadata';

export { TestClient } from './test-client.js';
export type { TestTarget, RequestOptions, BodyRequestOptions } from './test-client.js';
export { TestResponse } from './test-response.js';
export { createMockApp } from './mock-app.js';
export { MockMemory } from './mock-memory.js';
export type { MockMemoryCall, MockMemoryOptions } from './mock-memory.js';
export type { SseEvent } from '../../framework/src/sse/sse-parser.js';
