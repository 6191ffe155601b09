import { Controller, Inject } from '@nestjs/common';
import { Arg, Cache, LLM, MemoryService, Route, ValidationError } from 'toolkit';
import { ANALYSES, ANALYSIS_TYPES, type AnalysisType } from './analyses.js';
import { STYLES, type Styles } from './styles.js';

/** Analysis, generation and chat, on the injected `LLM` and `MemoryService`. */
@Controller()
export class AgentController {
  constructor(
    private readonly llm: LLM,
    private readonly memory: MemoryService,
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

  /** `{ user_id, message }` → `{ response }`, remembering each user's conversation. */
  @Route('/chat', { methods: ['POST'] })
  async chat(@Arg('user_id') userId: string, @Arg('message') message: string) {
    const memory = this.memory.for(userId);
    const history = await memory.toDictList({ maxTokens: 3000 });
    const response = await this.llm.chat(message, {
      history,
      system: 'You are a capable assistant that analyses and writes text.',
    });
    await memory.add('user', message);
    await memory.add('assistant', response);
    return { response };
  }
}
