import { describe, expect, it } from '@jest/globals';
import { UnsupportedDocumentError } from '../rag.errors.js';
import { detectDocumentType } from './detect-document-type.js';

describe('detectDocumentType', () => {
  it('knows a supported extension', () => {
    expect(detectDocumentType(Buffer.from('hello'), 'notes.txt')).toBe('txt');
  });

  it.each(['constructor', '__proto__', 'tostring', 'hasownproperty'])(
    'refuses ".%s", which only an object inherits, as an unsupported type',
    (ext) => {
      expect(() => detectDocumentType(Buffer.from('hello'), `notes.${ext}`)).toThrow(
        UnsupportedDocumentError,
      );
      expect(() => detectDocumentType(Buffer.from('hello'), `notes.${ext}`)).toThrow(
        `unsupported file type ".${ext}"`,
      );
    },
  );
});
