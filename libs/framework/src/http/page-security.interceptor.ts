import type { CallHandler, ExecutionContext, NestInterceptor } from '@nestjs/common';
import { HEADERS_METADATA } from '@nestjs/common/constants.js';
import type { Reflector } from '@nestjs/core';
import { map, type Observable } from 'rxjs';
import { pageSecurityPolicy } from './page-security-policy.js';
import { platformOfResponse } from './platform/platform-of.js';

interface HeaderMetadata {
  name: string;
  value: string | (() => string);
}

/**
 * Gives the HTML pages routes return (a string from a route declaring
 * `@Header('Content-Type', 'text/html')`) a Content-Security-Policy allowing exactly the page's
 * own inline scripts and styles (see {@link pageSecurityPolicy}). A policy the route set itself
 * with `@Header('Content-Security-Policy', …)` is kept.
 *
 * @example
 * nest.useGlobalInterceptors(new PageSecurityInterceptor(nest.get(Reflector)));
 */
export class PageSecurityInterceptor implements NestInterceptor {
  constructor(private readonly reflector: Reflector) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (context.getType() !== 'http' || !this.servesHtml(context)) return next.handle();
    const res = context.switchToHttp().getResponse<object>();
    return next.handle().pipe(
      map((page: unknown) => {
        if (typeof page === 'string') {
          platformOfResponse(res).setHeader(
            res,
            'Content-Security-Policy',
            pageSecurityPolicy(page),
          );
        }
        return page;
      }),
    );
  }

  private servesHtml(context: ExecutionContext): boolean {
    const headers =
      this.reflector.get<HeaderMetadata[] | undefined>(HEADERS_METADATA, context.getHandler()) ??
      [];
    const named = (name: string) => headers.find((header) => header.name.toLowerCase() === name);
    const type = named('content-type')?.value;
    return (
      typeof type === 'string' &&
      /^\s*text\/html\b/i.test(type) &&
      named('content-security-policy') === undefined
    );
  }
}
