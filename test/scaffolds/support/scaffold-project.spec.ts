import { describe, expect, it } from '@jest/globals';
import { withJsExtensions } from './scaffold-project.js';

describe('withJsExtensions', () => {
  it('adds .js to relative imports only, once', () => {
    const source = [
      "import { AppModule } from './../src/app.module';",
      "import { ChatController } from './chat/chat.controller';",
      "import { expectAsk } from './chat-checks.js';",
      "import { LLM } from 'toolkit';",
      "import { MockLLM } from 'toolkit/testing';",
    ].join('\n');
    expect(withJsExtensions(source).split('\n')).toEqual([
      "import { AppModule } from './../src/app.module.js';",
      "import { ChatController } from './chat/chat.controller.js';",
      "import { expectAsk } from './chat-checks.js';",
      "import { LLM } from 'toolkit';",
      "import { MockLLM } from 'toolkit/testing';",
    ]);
  });
});
