import { Controller } from '@nestjs/common';
import { Arg, Cache, LLM, Route, Stream } from 'toolkit';
import { decorateMethod, param, paramTypes } from './decorate.js';

/** Routes written with toolkit's decorators, next to the host's own controller. */
export class AssistantController {
  constructor(llm) {
    this.llm = llm;
    this.cachedCalls = 0;
  }

  greet(name) {
    return { greeting: `Hello, ${name}` };
  }

  async *count() {
    yield 'one';
    yield 'two';
    yield 'three';
  }

  cached() {
    this.cachedCalls += 1;
    return { calls: this.cachedCalls };
  }

  async complete(prompt) {
    return { text: await this.llm.complete(prompt) };
  }
}

const proto = AssistantController.prototype;
decorateMethod(proto, 'greet', [Route('/greet'), param(0, Arg('name')), paramTypes(String)]);
decorateMethod(proto, 'count', [Route('/count'), Stream()]);
decorateMethod(proto, 'cached', [Cache(), Route('/cached')]);
decorateMethod(proto, 'complete', [
  Route('/complete'),
  param(0, Arg('prompt')),
  paramTypes(String),
]);
Reflect.decorate([Controller('/assistant'), paramTypes(LLM)], AssistantController);
