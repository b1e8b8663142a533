import { describe, expect, it } from 'vitest';
import { errorMessage } from '../../src/errors/index.js';

describe('errorMessage', () => {
  it("quotes an Error's message and any other thrown value as text", () => {
    expect(errorMessage(new TypeError('disk full'))).toBe('disk full');
    expect(errorMessage('busy')).toBe('busy');
    expect(errorMessage(undefined)).toBe('undefined');
    expect(errorMessage(42)).toBe('42');
  });
});
