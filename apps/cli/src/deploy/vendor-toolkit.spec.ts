import { describe, expect, it } from '@jest/globals';
import { planVendoring } from './vendor-toolkit.js';

describe('planVendoring', () => {
  it('packs a local folder, wherever it is', () => {
    expect(planVendoring({ dependencies: { toolkit: 'file:/src/toolkit' } }, 'toolkit')).toEqual({
      action: 'pack',
      spec: 'file:/src/toolkit',
      source: '/src/toolkit',
    });
    expect(planVendoring({ dependencies: { kit: 'file:../kit' } }, 'kit')).toMatchObject({
      action: 'pack',
      source: '../kit',
    });
  });

  it('keeps a packed copy in vendor/, a registry range, a git URL and a missing dependency', () => {
    const deps = (spec: string) => ({ dependencies: { toolkit: spec } });
    expect(planVendoring(deps('file:vendor/toolkit-0.1.0.tgz'), 'toolkit')).toEqual({
      action: 'vendored',
      spec: 'file:vendor/toolkit-0.1.0.tgz',
    });
    expect(planVendoring(deps('^0.1.0'), 'toolkit')).toEqual({ action: 'keep', spec: '^0.1.0' });
    expect(planVendoring(deps('github:me/toolkit'), 'toolkit').action).toBe('keep');
    expect(planVendoring({}, 'toolkit')).toEqual({ action: 'keep', spec: undefined });
    // A folder merely named vendor/ (not a packed file) is still a local folder.
    expect(planVendoring(deps('file:vendor/toolkit'), 'toolkit').action).toBe('pack');
  });
});
