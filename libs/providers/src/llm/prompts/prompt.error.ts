import { ToolkitError } from '../../errors/toolkit.error.js';

/**
 * A prompt file problem: an unknown prompt name, a template that does not compile, or a
 * variable the template uses that the call did not give (handlebars strict mode). Answered as
 * 500: the prompt and the code calling it disagree.
 */
export class PromptError extends ToolkitError {
  constructor(message: string, cause?: unknown) {
    super(message, { statusCode: 500, cause });
  }
}
