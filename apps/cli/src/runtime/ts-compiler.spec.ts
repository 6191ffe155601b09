import { describe, expect, it } from '@jest/globals';
import { compileTypeScript } from './ts-compiler.js';

const SOURCE = `import { Injectable } from '@nestjs/common';
import { Greeter } from './greeter.js';
import type { Options } from './options.js';

@Injectable()
export class Service {
  count: number;
  constructor(private readonly greeter: Greeter, options: Options) {}
}
`;

describe('compileTypeScript', () => {
  it('emits design:paramtypes metadata naming the injected classes (what Nest DI reads)', async () => {
    const code = await compileTypeScript(SOURCE, '/project/service.ts');
    expect(code).toContain('"design:paramtypes"');
    expect(code).toMatch(/typeof Greeter === "undefined" \? Object : Greeter/);
  });

  it('keeps ES module syntax, keeps value imports used by metadata, drops type-only imports', async () => {
    const code = await compileTypeScript(SOURCE, '/project/service.ts');
    expect(code).toMatch(/^import \{ Injectable \} from '@nestjs\/common';/m);
    expect(code).toContain("from './greeter.js'");
    expect(code).not.toContain('./options.js');
    expect(code).toMatch(/export (class|let|var|const) Service/);
  });

  it('assigns class fields like tsc without useDefineForClassFields, and maps the source', async () => {
    const code = await compileTypeScript(SOURCE, '/project/service.ts');
    expect(code).not.toMatch(/^\s*count;/m);
    expect(code).toContain('//# sourceMappingURL=data:application/json;base64,');
  });

  it('rejects invalid TypeScript with the file name', async () => {
    await expect(compileTypeScript('export const = ;', '/project/broken.ts')).rejects.toThrow(
      /broken\.ts/,
    );
  });
});
