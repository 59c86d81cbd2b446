/**
 * The browser's codec (src/api/webCodec.ts) sends and reads the same bytes as the JavaScript
 * codec (checked against CryptoJS in codec.test.ts), with WebCrypto (Node's, the same API) and,
 * where a page has none, with the JavaScript cipher it loads; a bad body is the same clear error.
 */
import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import { TEXT_NOT_BLOCKS, TEXT_NOT_DECRYPTED, TEXT_NOT_UTF8 } from './aesText';
import { CodecError, createAesCodec } from './codec';
import { DEV_AES_IV, DEV_AES_KEY } from './codes';
import { createWireCodec } from './webCodec';

const js = createAesCodec(DEV_AES_KEY, DEV_AES_IV);

/** Raw AES-CBC without padding (so that any last block can be made): what a sender with a broken padding would send. */
async function rawCbc(bytes: Uint8Array<ArrayBuffer>): Promise<string> {
  const key = await crypto.subtle.importKey('raw', new TextEncoder().encode(DEV_AES_KEY), { name: 'AES-CBC' }, false, ['encrypt']);
  const padded = new Uint8Array(await crypto.subtle.encrypt({ name: 'AES-CBC', iv: new TextEncoder().encode(DEV_AES_IV) }, key, bytes));
  // WebCrypto always pads: the last block is only padding for a whole-block input; drop it.
  return btoa(String.fromCharCode(...padded.subarray(0, bytes.length)));
}

describe.each([
  ['WebCrypto', () => createWireCodec(DEV_AES_KEY, DEV_AES_IV)],
  ['no WebCrypto (the JavaScript cipher, loaded)', () => createWireCodec(DEV_AES_KEY, DEV_AES_IV, null)],
])('[§7] the browser\'s codec with %s', (_, make) => {
  it('encrypts to the same bytes as the JavaScript codec, and reads its bytes, for any unicode text', async () => {
    const codec = make();
    await fc.assert(fc.asyncProperty(fc.string({ unit: 'grapheme', maxLength: 200 }), async (plain) => {
      expect(await codec.encrypt(plain)).toBe(js.encrypt(plain));
      expect(await codec.decrypt(js.encrypt(plain))).toBe(plain);
    }), { numRuns: 200 });
  });

  it.each([
    ['not base64', '%%%not-base64%%%', 'The body is not base64 text.'],
    ['empty', '', TEXT_NOT_BLOCKS],
    ['not a whole block', btoa('abc'), TEXT_NOT_BLOCKS],
    ['wrong padding', btoa('0123456789abcdef'), TEXT_NOT_DECRYPTED],
  ])('a body that is %s is a CodecError that says so', async (_, wire, message) => {
    const outcome = make().decrypt(wire);
    await expect(Promise.resolve().then(() => outcome)).rejects.toThrow(CodecError);
    await expect(Promise.resolve().then(() => make().decrypt(wire))).rejects.toThrow(message);
  });

  it('a body that decrypts to bytes that are not UTF-8 is a CodecError', async () => {
    // 0xff is never UTF-8; the block's last byte 0x01 is a valid one-byte padding.
    const block = new Uint8Array(16).fill(0xff);
    block[15] = 0x01;
    await expect(make().decrypt(await rawCbc(block))).rejects.toThrow(TEXT_NOT_UTF8);
  });
});

describe('[§5] the browser\'s codec takes a key and an IV of exactly 16 bytes', () => {
  it.each([
    ['short key', 'short', DEV_AES_IV, /key must be exactly 16 bytes \(got 5\)/],
    ['multi-byte key', 'ééabcdefghijklmn', DEV_AES_IV, /key must be exactly 16 bytes \(got 18\)/],
    ['short IV', DEV_AES_KEY, '123', /IV must be exactly 16 bytes \(got 3\)/],
  ])('rejects a %s', (_, key, iv, message) => {
    expect(() => createWireCodec(key, iv)).toThrow(CodecError);
    expect(() => createWireCodec(key, iv)).toThrow(message);
  });
});

describe('the browser\'s codec uses WebCrypto where the page has it, and only there', () => {
  it('imports the key once and encrypts and decrypts there', async () => {
    const subtle = crypto.subtle;
    const importKey = vi.spyOn(subtle, 'importKey');
    const encrypt = vi.spyOn(subtle, 'encrypt');
    const decrypt = vi.spyOn(subtle, 'decrypt');
    try {
      const codec = createWireCodec(DEV_AES_KEY, DEV_AES_IV, subtle);
      const wire = await codec.encrypt('{"a":1}');
      await codec.decrypt(wire);
      await codec.encrypt('{"b":2}');
      expect(importKey).toHaveBeenCalledTimes(1);
      expect(encrypt).toHaveBeenCalledTimes(2);
      expect(decrypt).toHaveBeenCalledTimes(1);
    } finally {
      vi.restoreAllMocks();
    }
  });

  it('a page without it encrypts and decrypts with the JavaScript cipher', async () => {
    const encrypt = vi.spyOn(crypto.subtle, 'encrypt');
    const decrypt = vi.spyOn(crypto.subtle, 'decrypt');
    try {
      const codec = createWireCodec(DEV_AES_KEY, DEV_AES_IV, null);
      expect(await codec.decrypt(await codec.encrypt('{"a":1}'))).toBe('{"a":1}');
      expect(encrypt).not.toHaveBeenCalled();
      expect(decrypt).not.toHaveBeenCalled();
    } finally {
      vi.restoreAllMocks();
    }
  });
});
