import { describe, expect, it } from '@jest/globals';
import { appliesToolkitReplies } from '../reply-rules.js';
import { createHttpAdapter, importPlatformPackage } from './platform-adapter.js';
import { MissingPlatformPackageError } from './missing-platform-package.error.js';

describe('the platform package, imported when an app starts', () => {
  it('creates the adapter of each platform', async () => {
    expect((await createHttpAdapter('express', { trustProxy: false })).getType()).toBe('express');
    expect((await createHttpAdapter('fastify', { trustProxy: true })).getType()).toBe('fastify');
  });

  it("gives toolkit's adapters, which apply the return rules themselves", async () => {
    expect(appliesToolkitReplies(await createHttpAdapter('express', { trustProxy: false }))).toBe(
      true,
    );
    expect(appliesToolkitReplies(await createHttpAdapter('fastify', { trustProxy: false }))).toBe(
      true,
    );
  });

  it('says how to install @nestjs/platform-fastify when the import cannot find it', async () => {
    const missing = (name: string): Promise<never> =>
      Promise.reject(
        Object.assign(new Error(`Cannot find package '${name}' imported from toolkit`), {
          code: 'ERR_MODULE_NOT_FOUND',
        }),
      );
    const error = await importPlatformPackage('fastify', '@nestjs/platform-fastify', missing).catch(
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(MissingPlatformPackageError);
    expect((error as Error).message).toBe(
      'app.platform "fastify" needs @nestjs/platform-fastify, which is not installed: run npm install @nestjs/platform-fastify',
    );
    expect((error as Error).message).not.toContain('\n');
  });

  it('rethrows any other failure as it is', async () => {
    const broken = (): Promise<never> => Promise.reject(new SyntaxError('Unexpected token'));
    await expect(importPlatformPackage('fastify', 'x', broken)).rejects.toThrow(SyntaxError);
  });
});
