import { describe, expect, it } from '@jest/globals';
import { Catch, Module, type DynamicModule, type ExceptionFilter } from '@nestjs/common';
import { APP_FILTER } from '@nestjs/core';
import { exceptionFilterFirst, exceptionFilterProvider } from './exception-filter.provider.js';
import { ToolkitModule } from './toolkit.module.js';

@Catch()
class YourFilter implements ExceptionFilter {
  catch(): void {}
}

@Module({})
class Root {}

@Module({})
class Other {}

const yours = { provide: APP_FILTER, useClass: YourFilter };

describe('ToolkitModule', () => {
  it('registers toolkit’s exception filter from forRoot() and forRootAsync()', () => {
    expect(ToolkitModule.forRoot().providers).toContain(exceptionFilterProvider);
    expect(ToolkitModule.forRootAsync().providers).toContain(exceptionFilterProvider);
  });
});

describe('exceptionFilterFirst', () => {
  it("moves toolkit's filter from ToolkitModule to the root, ahead of the root's providers", () => {
    const toolkit = ToolkitModule.forRoot();
    const root = exceptionFilterFirst<DynamicModule>({
      module: Root,
      imports: [Other, toolkit],
      providers: [yours],
    });
    expect(root.providers).toEqual([exceptionFilterProvider, yours]);
    const [other, moved] = root.imports ?? [];
    expect(other).toBe(Other);
    expect((moved as DynamicModule).module).toBe(ToolkitModule);
    expect((moved as DynamicModule).providers).not.toContain(exceptionFilterProvider);
    // The rest of ToolkitModule's providers stay where they were, in their order.
    expect((moved as DynamicModule).providers).toEqual(
      (toolkit.providers ?? []).filter((p) => p !== exceptionFilterProvider),
    );
  });

  it('leaves the modules it was given unchanged', () => {
    const toolkit = ToolkitModule.forRoot();
    const metadata = { imports: [toolkit], providers: [yours] };
    exceptionFilterFirst(metadata);
    expect(toolkit.providers).toContain(exceptionFilterProvider);
    expect(metadata.providers).toEqual([yours]);
    expect(metadata.imports[0]).toBe(toolkit);
  });

  it('returns a root that does not import ToolkitModule directly as it is', () => {
    const metadata = { imports: [Other], providers: [yours] };
    expect(exceptionFilterFirst(metadata)).toBe(metadata);
    const empty = {};
    expect(exceptionFilterFirst(empty)).toBe(empty);
  });
});
