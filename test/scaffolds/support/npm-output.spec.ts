import { describe, expect, it } from '@jest/globals';
import { readInstallOutput } from './npm-output.js';

// What npm 11 printed when a package with a Nest 12 peer was installed into the Nest 11 app,
// and when one declared an engine this Node does not satisfy.
const PEER_CONFLICT = `npm error code ERESOLVE
npm error ERESOLVE unable to resolve dependency tree
npm error
npm error While resolving: nest11-app@0.0.1
npm error Found: @nestjs/common@11.2.10
npm error Could not resolve dependency:
npm error peer @nestjs/common@"^12.5.1" from toolkit@0.0.9
npm error node_modules/toolkit`;
const ENGINES = `npm warn EBADENGINE Unsupported engine {
npm warn EBADENGINE   package: '@nestjs/schematics@12.0.6',
npm warn EBADENGINE   required: { node: '^22.22.3 || ^24.15.0 || >=26.0.0' },
npm warn EBADENGINE }
npm warn EBADENGINE Unsupported engine {
npm warn EBADENGINE   package: 'toolkit@0.0.8',
npm warn EBADENGINE   required: { node: '>=99' },
npm warn EBADENGINE }
npm http fetch GET 200 https://registry.npmjs.org/toolkit-helper 4ms (cache hit)

added 48 packages in 9s`;

describe('readInstallOutput', () => {
  it('finds an ERESOLVE error and the line naming toolkit', () => {
    const report = readInstallOutput(PEER_CONFLICT);
    expect(report.resolveWarnings).toEqual([
      'npm error code ERESOLVE',
      'npm error ERESOLVE unable to resolve dependency tree',
    ]);
    expect(report.toolkitWarnings).toEqual([
      'npm error peer @nestjs/common@"^12.5.1" from toolkit@0.0.9',
    ]);
  });

  it('lists the packages of engine warnings, and counts the added packages', () => {
    const report = readInstallOutput(ENGINES);
    expect(report.engineWarnings).toEqual(['@nestjs/schematics@12.0.6', 'toolkit@0.0.8']);
    expect(report.toolkitWarnings).toEqual(["npm warn EBADENGINE   package: 'toolkit@0.0.8',"]);
    expect(report.added).toBe(48);
    expect(report.resolveWarnings).toEqual([]);
  });
});
