import { describe, expect, it } from '@jest/globals';
import { privateReadsIn } from './nest-private-reads.js';

describe('privateReadsIn', () => {
  it('finds reads of the container behind ModuleRef, however written', () => {
    const text = [
      'const a = moduleRef.container;',
      "const b = moduleRef['container'];",
      'const c = (moduleRef as unknown as { container?: unknown }).container;',
    ].join('\n');
    expect(privateReadsIn(text)).toEqual([
      '1: moduleRef.container',
      "2: moduleRef['container']",
      '3: (moduleRef as unknown as { container?: unknown }).container',
      '3: container?: unknown',
    ]);
  });

  it("finds reads of the application's global filters and Nest's internal classes", () => {
    const text = [
      'const filters = config.applicationConfig.getGlobalFilters();',
      "import { ApplicationConfig } from '@nestjs/core';",
      'declare const nest: NestContainer;',
      'type Filters = { getGlobalFilters(): unknown[] };',
    ].join('\n');
    expect(privateReadsIn(text)).toEqual([
      '1: config.applicationConfig.getGlobalFilters',
      '1: config.applicationConfig',
      '2: ApplicationConfig',
      '3: NestContainer',
      '4: getGlobalFilters(): unknown[]',
    ]);
  });

  it('leaves public seams, comments and strings alone', () => {
    const text = [
      "import { FILTER_CATCH_EXCEPTIONS } from '@nestjs/common/constants.js';",
      '// Never read moduleRef.container: it is private.',
      "const note = 'the container';",
      'const filter = moduleRef.get(MyFilter, { strict: false });',
      'const host = adapterHost.httpAdapter;',
    ].join('\n');
    expect(privateReadsIn(text)).toEqual([]);
  });
});
