import CryptoJS from 'crypto-js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CodecError, createAesCodec } from './codec';
import { DEV_AES_IV, DEV_AES_KEY } from './codes';

/** The production backend's format, used here only as an oracle. */
function cryptoJsEncrypt(plain: string, key: string, iv: string): string {
  return CryptoJS.AES.encrypt(CryptoJS.enc.Utf8.parse(plain), CryptoJS.enc.Utf8.parse(key), {
    iv: CryptoJS.enc.Utf8.parse(iv),
    mode: CryptoJS.mode.CBC,
    padding: CryptoJS.pad.Pkcs7,
  }).toString();
}
function cryptoJsDecrypt(wire: string, key: string, iv: string): string {
  return CryptoJS.AES.decrypt(wire, CryptoJS.enc.Utf8.parse(key), {
    iv: CryptoJS.enc.Utf8.parse(iv),
    mode: CryptoJS.mode.CBC,
    padding: CryptoJS.pad.Pkcs7,
  }).toString(CryptoJS.enc.Utf8);
}

const codec = createAesCodec(DEV_AES_KEY, DEV_AES_IV);

describe('[§7] AES codec', () => {
  it.each([
    ['empty object', '{}'],
    ['ascii', '{"account":"host1@example.com","password":"password1"}'],
    ['emoji', '{"text":"hi 😀👍🏽 — ok"}'],
    ['Chinese', '{"nickname":"主播小美","text":"你好，世界"}'],
    ['exactly one block', '0123456789abcdef'],
  ])('is byte-identical to CryptoJS for %s', (_, plain) => {
    expect(codec.encrypt(plain)).toBe(cryptoJsEncrypt(plain, DEV_AES_KEY, DEV_AES_IV));
    expect(codec.decrypt(cryptoJsEncrypt(plain, DEV_AES_KEY, DEV_AES_IV))).toBe(plain);
    expect(cryptoJsDecrypt(codec.encrypt(plain), DEV_AES_KEY, DEV_AES_IV)).toBe(plain);
  });

  it('matches CryptoJS for any unicode text', () => {
    fc.assert(fc.property(fc.string({ unit: 'grapheme', maxLength: 200 }), (plain) => {
      expect(codec.encrypt(plain)).toBe(cryptoJsEncrypt(plain, DEV_AES_KEY, DEV_AES_IV));
      expect(codec.decrypt(codec.encrypt(plain))).toBe(plain);
    }), { numRuns: 300 });
  });

  it('pads a whole block with a full block of padding, as PKCS#7 requires', () => {
    const wire = codec.encrypt('0123456789abcdef');
    expect(atob(wire)).toHaveLength(32);
  });

  describe('[§5] key and IV must each be exactly 16 bytes', () => {
    it.each([
      ['short key', 'short', DEV_AES_IV, /key must be exactly 16 bytes \(got 5\)/],
      ['long key', 'x'.repeat(17), DEV_AES_IV, /key must be exactly 16 bytes \(got 17\)/],
      ['short IV', DEV_AES_KEY, '123', /IV must be exactly 16 bytes \(got 3\)/],
      // 16 characters but 18 bytes in UTF-8: bytes are what count.
      ['multi-byte key', 'ééabcdefghijklmn', DEV_AES_IV, /key must be exactly 16 bytes \(got 18\)/],
    ])('rejects a %s', (_, key, iv, message) => {
      expect(() => createAesCodec(key, iv)).toThrow(CodecError);
      expect(() => createAesCodec(key, iv)).toThrow(message);
    });
  });

  describe('bad input is a clear error', () => {
    it.each([
      ['not base64', '%%%not-base64%%%'],
      ['empty', ''],
      ['not a whole block', btoa('abc')],
      ['wrong padding', btoa('0123456789abcdef')],
    ])('%s', (_, wire) => {
      expect(() => codec.decrypt(wire)).toThrow(CodecError);
    });

    it('text encrypted under another key does not decrypt to the original', () => {
      const other = cryptoJsEncrypt('{"code":"0000"}', 'ffffffffffffffff', DEV_AES_IV);
      let outcome: string | Error;
      try { outcome = codec.decrypt(other); } catch (e) { outcome = e as Error; }
      if (typeof outcome === 'string') expect(outcome).not.toBe('{"code":"0000"}');
      else expect(outcome).toBeInstanceOf(CodecError);
    });
  });
});
