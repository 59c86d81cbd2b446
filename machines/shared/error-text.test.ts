import { describe, expect, it } from 'vitest';
import { TEXT_SOMETHING_FAILED, errorOf, textOf } from './error-text';

describe('textOf', () => {
  it("an error's own message is the text", () => {
    expect(textOf(new Error('Diamonds are not enough'))).toBe('Diamonds are not enough');
  });
  it('a non-empty string is the text as it is', () => {
    expect(textOf('Could not send')).toBe('Could not send');
  });
  it('anything without a message gets the fallback, or the general one', () => {
    expect(textOf(new Error(''), 'Could not load. Please try again.')).toBe('Could not load. Please try again.');
    expect(textOf(undefined)).toBe(TEXT_SOMETHING_FAILED);
    expect(textOf({ code: 500 })).toBe(TEXT_SOMETHING_FAILED);
    expect(textOf('')).toBe(TEXT_SOMETHING_FAILED);
  });
  it("errorOf hands an actor's error on as params", () => {
    const error = new Error('x');
    expect(errorOf({ event: { error } })).toEqual({ error });
  });
});
