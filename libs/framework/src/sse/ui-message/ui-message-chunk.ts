/**
 * One chunk of the AI SDK's UI message stream protocol (the `UIMessageChunk` of `ai`), as a
 * `format: 'ui-message'` stream sends it in a `data:` line. Only the fields toolkit writes are
 * spelled out; chunks a handler yields itself pass through unchanged.
 */
export type UiMessageChunk =
  | { type: 'start'; messageId?: string; messageMetadata?: unknown }
  | { type: 'start-step' }
  | { type: 'finish-step' }
  | { type: 'text-start'; id: string }
  | { type: 'text-delta'; id: string; delta: string }
  | { type: 'text-end'; id: string }
  | { type: 'tool-input-available'; toolCallId: string; toolName: string; input: unknown }
  | { type: 'tool-output-available'; toolCallId: string; output: unknown }
  | { type: 'tool-output-error'; toolCallId: string; errorText: string }
  | { type: 'finish'; finishReason?: UiFinishReason; messageMetadata?: unknown }
  | { type: 'error'; errorText: string }
  | { type: `data-${string}`; data: unknown; id?: string; transient?: boolean }
  | { type: string; [field: string]: unknown };

/** The finish reasons the AI SDK's `finish` chunk accepts. */
export type UiFinishReason =
  'stop' | 'length' | 'content-filter' | 'tool-calls' | 'error' | 'other';

/** The response header by which the AI SDK recognises a UI message stream. */
export const UI_MESSAGE_STREAM_HEADER = 'x-vercel-ai-ui-message-stream';

/** The value of {@link UI_MESSAGE_STREAM_HEADER} for version 1 of the protocol. */
export const UI_MESSAGE_STREAM_VERSION = 'v1';

/** Stands for the closing `data: [DONE]` among the chunks a stream emits. */
export const UI_MESSAGE_STREAM_DONE = Symbol('toolkit:ui-message-stream-done');

/**
 * Chunk types a handler may yield as they are (besides `data-*`): the protocol's own parts,
 * for a handler that speaks it (reasoning, sources, files, metadata...).
 */
export const PASS_THROUGH_TYPES: ReadonlySet<string> = new Set([
  'start',
  'abort',
  'error',
  'start-step',
  'finish-step',
  'text-start',
  'text-end',
  'reasoning-start',
  'reasoning-delta',
  'reasoning-end',
  'tool-input-start',
  'tool-input-delta',
  'tool-input-available',
  'tool-input-error',
  'tool-output-available',
  'tool-output-error',
  'source-url',
  'source-document',
  'file',
  'message-metadata',
]);
