import { describe, expect, it } from 'vitest';
import { PreviewLabel, parseExt, previewOf } from './preview';

describe('[§9 Preview labels] previewOf', () => {
  it.each([
    [{ type: 'text', text: '  hello  ' }, 'hello'],
    [{ type: 'text', text: '   ' }, PreviewLabel.unknown],
    [{ type: 'image', attach: { url: 'https://x/y.png' } }, '[picture]'],
    [{ type: 'audio', attach: { url: 'https://x/y.aac' } }, '[Voice messages]'],
    [{ type: 'custom', attach: { type: 'recharge' } }, '[recharge successful!]'],
    [{ type: 'custom', attach: { type: 'call', status: 4 } }, '[Missed]'],
    [{ type: 'custom', attach: { type: 'call', status: 3 } }, '[rejected]'],
    [{ type: 'custom', attach: { type: 'call', status: 2 } }, '[Cancelled]'],
    [{ type: 'custom', attach: { missedCall: true } }, '[Missed]'],
    [{ type: 'custom', attach: { type: 70 } }, '[Host Recommend]'],
    [{ type: 'custom', attach: { type: '70' } }, '[Host Recommend]'],
    [{ type: 'text', text: 'x', ext: { extensionType: 'privateMsg' } }, '[Secret Message]'],
    [{ type: 'text', text: 'x', ext: '{"extensionType":"friendMsg","data":{}}' }, '[Moments Message]'],
    [{ type: 'custom', attach: { type: 'gift' } }, '[Unknown messages]'],
    [{ type: 'video' }, '[Unknown messages]'],
  ] as const)('%j → %s', (message, expected) => {
    expect(previewOf(message as never)).toBe(expected);
  });

  it('cuts a long text', () => {
    expect(previewOf({ type: 'text', text: 'a'.repeat(500) })).toHaveLength(120);
  });

  it.each([['{not json'], ['[1,2]'], ['"str"'], [42], [null], ['']])('parseExt(%j) is null', (ext) => {
    expect(parseExt(ext)).toBeNull();
  });
});
