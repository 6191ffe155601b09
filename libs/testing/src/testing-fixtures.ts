import { createMockApp } from './mock-app.js';
import { MockLLM } from './mock-llm.js';
import { MockMemory } from './mock-memory.js';
import { TestClient } from './test-client.js';
import type { App } from '../../framework/src/index.js';

/** Factories for the usual test objects; each call makes a fresh one. */
export interface TestingFixtures {
  /** A `MockLLM` answering `"Mock response"`. */
  mockLlm: () => MockLLM;
  /** An empty `MockMemory`. */
  mockMemory: () => MockMemory;
  /** The mock app (`GET /health`, `POST /echo`). */
  testApp: () => App;
  /** A `TestClient` on a new mock app. */
  testClient: () => TestClient;
}

/**
 * Factories for a fresh `MockLLM`, `MockMemory`, mock app or `TestClient` per test, for jest's
 * `beforeEach`.
 *
 * @example
 * const { mockLlm, testClient } = testingFixtures();
 * let llm: MockLLM;
 * beforeEach(() => (llm = mockLlm()));
 */
export function testingFixtures(): TestingFixtures {
  return {
    mockLlm: () => new MockLLM(),
    mockMemory: () => new MockMemory(),
    testApp: () => createMockApp(),
    testClient: () => new TestClient(createMockApp()),
  };
}
