import { Controller, Inject } from '@nestjs/common';
import {
  Arg,
  Cache,
  LLM,
  MemoryService,
  Route,
  Session,
  ToolRegistry,
  ValidationError,
} from 'toolkit';
import { ANALYSES, ANALYSIS_TYPES, type AnalysisType } from './analyses.js';
import { CHAT_SYSTEM_PROMPT, conversationId, conversationOf, USER_ID } from './conversation.js';
import { STYLES, type Styles } from './styles.js';

/** Analysis, generation and chat, on the injected `LLM` and `MemoryService`. */
@Controller()
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
    @Arg('text') text: string,
    @Arg('analysis_type', { default: 'summary', oneOf: ANALYSIS_TYPES }) type: AnalysisType,
  ) {
    if (text.trim() === '') return [{ error: 'text must not be empty' }, 400];
    const analysis = await this.llm.complete(text, { system: ANALYSES[type] });
    return { analysis, analysis_type: type };
  }

  /** `{ prompt, style? }` → `{ content }`, in one of the configured styles. */
  @Route('/generate', { methods: ['POST'] })
  async generate(
    @Arg('prompt') prompt: string,
    @Arg('style', { default: 'formal' }) style: string,
  ) {
    const instruction = this.styles[style];
    if (instruction === undefined) {
      const known = Object.keys(this.styles).join(', ');
      throw new ValidationError([
        { param: 'style', problem: `must be one of ${known} (got ${JSON.stringify(style)})` },
      ]);
    }
    const content = await this.llm.complete(prompt, { system: instruction });
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
    @Arg('message', { maxLength: 20_000 }) message: string,
    @Arg('user_id', USER_ID) userId: string,
  ) {
    const memory = conversationOf(this.memory, session, userId);
    const history = await memory.toDictList({ maxTokens: 3000 });
    const answer = await this.llm.generate(message, {
      history,
      system: CHAT_SYSTEM_PROMPT,
      tools: this.tools.all(),
      toolContext: { conversation: conversationId(session, userId) },
    });
    // Both messages together, once the answer exists: a failed call leaves no trace.
    await memory.addTurn(message, answer.text);
    const toolCalls = answer.steps.flatMap((step) => step.toolCalls);
    return { response: answer.text, tool_calls: toolCalls };
  }
}
