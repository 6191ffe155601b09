import { describe, expect, it } from '@jest/globals';
import { diffSnapshots, formatSnapshot, toSnapshot } from './api-snapshot.js';

describe('diffSnapshots', () => {
  it('is empty when the API matches the snapshot', () => {
    const snapshot = { toolkit: { App: 'value', AppOptions: 'type' } } as const;
    expect(diffSnapshots(snapshot, { toolkit: { ...snapshot.toolkit } })).toEqual([]);
  });

  it('names added, removed and re-kinded exports under their entry point', () => {
    const committed = {
      toolkit: { App: 'value', formatBytes: 'value', Options: 'type' },
      'toolkit/testing': { TestClient: 'value' },
    } as const;
    const current = {
      toolkit: { App: 'value', Options: 'value', SseParser: 'value' },
      'toolkit/testing': { TestClient: 'value' },
    } as const;
    expect(diffSnapshots(committed, current)).toEqual([
      'toolkit:',
      '  - formatBytes (value)',
      '  ~ Options: type → value',
      '  + SseParser (value)',
    ]);
  });

  it('reports a whole entry point that appears or disappears', () => {
    expect(diffSnapshots({}, { 'toolkit/rag': { chunkText: 'value' } })).toEqual([
      'toolkit/rag:',
      '  + chunkText (value)',
    ]);
  });
});

describe('formatSnapshot', () => {
  it('writes one export per line, in the order given, ending with a newline', () => {
    const text = formatSnapshot(
      toSnapshot({ toolkit: [{ name: 'App', kind: 'value', declarations: [] }] }),
    );
    expect(text).toBe('{\n  "toolkit": {\n    "App": "value"\n  }\n}\n');
  });
});
