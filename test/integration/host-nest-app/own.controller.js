import { BadRequestException, Controller, Get } from '@nestjs/common';
import { decorateMethod } from './decorate.js';

/** The host application's own plain Nest routes: toolkit must leave them alone. */
export class OwnController {
  own() {
    return { own: true };
  }

  bad() {
    throw new BadRequestException('x');
  }
}

decorateMethod(OwnController.prototype, 'own', [Get('/own')]);
decorateMethod(OwnController.prototype, 'bad', [Get('/bad')]);
Reflect.decorate([Controller()], OwnController);
