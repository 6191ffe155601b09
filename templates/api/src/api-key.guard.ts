import { Injectable, Logger, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { ToolkitError } from 'toolkit';
import { isValidKey, parseKeys, presentedKey, type CallerRequest } from './api-keys.js';
import { IS_PUBLIC } from './public.decorator.js';

/** Requires a valid API key on every route not marked `@Public()`; 401 + WWW-Authenticate otherwise. */
@Injectable()
export class ApiKeyGuard implements CanActivate {
  private readonly keys = parseKeys(process.env.API_KEYS);

  constructor(private readonly reflector: Reflector) {
    if (this.keys.length === 0) {
      new Logger('api').warn(
        'API_KEYS is empty: every protected route answers 401 until you set it in .env',
      );
    }
  }

  canActivate(context: ExecutionContext): boolean {
    const isPublic = this.reflector.getAllAndOverride<boolean>(IS_PUBLIC, [
      context.getHandler(),
      context.getClass(),
    ]);
    if (isPublic) return true;
    const key = presentedKey(context.switchToHttp().getRequest<CallerRequest>());
    if (key !== undefined && isValidKey(key, this.keys)) return true;
    throw new ToolkitError(key === undefined ? 'An API key is required' : 'Invalid API key', {
      statusCode: 401,
      headers: { 'WWW-Authenticate': 'Bearer realm="api"' },
    });
  }
}
