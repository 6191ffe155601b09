import { describe, expect, it } from '@jest/globals';
import { installedPlatform } from './installed-platform.js';

/** A resolver that finds only the `installed` packages. */
const only =
  (...installed: string[]) =>
  (name: string): string => {
    if (installed.includes(name)) return `/app/node_modules/${name}/index.js`;
    throw Object.assign(new Error(`Cannot find module '${name}'`), { code: 'MODULE_NOT_FOUND' });
  };

describe('installedPlatform', () => {
  it('is Express when @nestjs/platform-express is installed, with or without Fastify', () => {
    expect(installedPlatform(only('@nestjs/platform-express'))).toBe('express');
    expect(installedPlatform(only('@nestjs/platform-express', '@nestjs/platform-fastify'))).toBe(
      'express',
    );
  });

  it('is Fastify in an app that installed only @nestjs/platform-fastify', () => {
    expect(installedPlatform(only('@nestjs/platform-fastify'))).toBe('fastify');
  });

  it('is Express when neither is installed (its start then names the package to install)', () => {
    expect(installedPlatform(only())).toBe('express');
  });

  it('finds the packages this repository installs', () => {
    expect(installedPlatform()).toBe('express');
  });
});
