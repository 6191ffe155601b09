import { Controller, Inject } from '@nestjs/common';
import {
  Arg,
  Cache,
  LLM,
  MemoryService,
  RateLimit,
  Route,
  Session,
  ToolRegistry,
  toolStepsOf,
  ValidationError,
} from 'toolkit';
import { ANALYSES, ANALYSIS_TYPES, type AnalysisType } from './analyses.js';
import {
  CHAT_SYSTEM_PROMPT,
  conversationId,
  conversationOf,
  MESSAGE,
  STYLE,
  TEXT,
  USER_ID,
} from './conversation.js';
import { STYLES, styleInstruction, type Styles } from './styles.js';

/**
 * Analysis, generation and chat, on the injected `LLM` and `MemoryService`. Every route here calls
 * the model: each is `@RateLimit()`ed per session and per client address (toolkit.yaml's
 * `limits:`), and each call is made for the session (`userId`), so `llm.budget` applies.
 */
@Controller()
@RateLimit()
export class AgentController {
  constructor(
    private readonly llm: LLM,
    private readonly memory: MemoryService,
    private readonly tools: ToolRegistry,
    @Inject(STYLES) private readonly styles: Styles,
  ) {}

  /** `{ text, analysis_type? }` → `{ analysis }`. Identical requests within an hour come from the cache. */
  @Route('/analyze', { methods: ['POST'] })
  @Cache({ ttl: 3600 })
  async analyze(
    @Session() session: string,
    @Arg('text', TEXT) text: string,
    @Arg('analysis_type', { default: 'summary', oneOf: ANALYSIS_TYPES }) type: AnalysisType,
  ) {
    if (text.trim() === '') return [{ error: 'text must not be empty' }, 400];
    const analysis = await this.llm.complete(text, { system: ANALYSES[type], userId: session });
    return { analysis, analysis_type: type };
  }

  /** `{ prompt, style? }` → `{ content }`, in one of the configured styles. */
  @Route('/generate', { methods: ['POST'] })
  async generate(
    @Session() session: string,
    @Arg('prompt', TEXT) prompt: string,
    @Arg('style', STYLE) style: string,
  ) {
    const instruction = styleInstruction(this.styles, style);
    if (instruction === undefined) {
      const known = Object.keys(this.styles).join(', ');
      throw new ValidationError([
        { param: 'style', problem: `must be one of ${known} (got ${JSON.stringify(style)})` },
      ]);
    }
    const content = await this.llm.complete(prompt, { system: instruction, userId: session });
    return { content, style };
  }

  /**
   * `{ message, user_id? }` → `{ response, tool_calls }`: the model may call the `@Tool()` methods
   * of `src/tools/` (up to 5 model calls), and `tool_calls` lists what it called, with each
   * result or error. Remembers the conversation of the caller's session (see
   * `src/conversation.ts`); `/chat/stream`, `/history` and `/clear` are in `src/chat.controller.ts`.
   */
  @Route('/chat', { methods: ['POST'] })
  async chat(
    @Session() session: string,
    @Arg('message', MESSAGE) message: string,
    @Arg('user_id', USER_ID) userId: string,
  ) {
    const memory = conversationOf(this.memory, session, userId);
    const history = await memory.toDictList({ maxTokens: 3000 });
    const answer = await this.llm.generate(message, {
      history,
      system: CHAT_SYSTEM_PROMPT,
      tools: this.tools.all(),
      toolContext: { conversation: conversationId(session, userId) },
      userId: session,
    });
    // Both messages together, once the answer exists: a failed call leaves no trace. The tool
    // calls go with the answer, so /history shows them and the next turn's model call sees them.
    await memory.addTurn(message, answer.text, { tools: toolStepsOf(answer.steps) });
    const toolCalls = answer.steps.flatMap((step) => step.toolCalls);
    return { response: answer.text, tool_calls: toolCalls };
  }
}
