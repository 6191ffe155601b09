import { Injectable } from '@nestjs/common';
import { Tool } from 'toolkit';
import { evaluateArithmetic, MAX_EXPRESSION_LENGTH } from './arithmetic.js';

/** Exact arithmetic for the model, which is unreliable at it. */
@Injectable()
export class CalculatorTools {
  @Tool({
    name: 'calculator',
    description:
      'Evaluates an arithmetic expression exactly: numbers, + - * / %, ^ for powers and parentheses. ' +
      'Use it for any calculation instead of computing in your head.',
    parameters: {
      type: 'object',
      properties: {
        expression: {
          type: 'string',
          description: 'e.g. "(1200 * 0.15) + 49.90"',
          maxLength: MAX_EXPRESSION_LENGTH,
        },
      },
      required: ['expression'],
      additionalProperties: false,
    },
  })
  calculate({ expression }: { expression: string }): number {
    return evaluateArithmetic(expression);
  }
}
