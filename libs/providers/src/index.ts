// `toolkit/providers`: the framework-free building blocks (errors, LLM, memory and cache
// backends). RAG parts have their own entry point, `toolkit/rag`.
export * from './errors/index.js';
export * from './llm/index.js';
export * from './memory/index.js';
export * from './cache/index.js';
