/**
 * The browser's AES transport (SPEC §7, the same bytes as src/api/codec.ts): WebCrypto's
 * AES-CBC, which runs natively and off the page's main thread, with the key imported once.
 * A page that is not a secure context has no WebCrypto: there the JavaScript cipher is loaded
 * (its own chunk) and used instead. The start's requests and answers were some 30 ms of the
 * main thread in JavaScript, and its module some 10 more building tables, before the first
 * screen could render.
 */
import {
  CodecError, TEXT_NOT_DECRYPTED, bytesToBase64, cipherBytes, sixteenBytes, utf8Text, type WireCodec,
} from './aesText';

/**
 * `subtle`: the page's WebCrypto (null where there is none, as outside a secure context). Throws
 * CodecError when key or IV is not exactly 16 bytes (§5), as the JavaScript codec does.
 */
export function createWireCodec(key: string, iv: string, subtle: SubtleCrypto | null = globalThis.crypto?.subtle ?? null): WireCodec {
  const keyBytes = sixteenBytes('key', key);
  const ivBytes = sixteenBytes('IV', iv);
  if (!subtle) {
    const js = import('./codec').then(({ createAesCodec }) => createAesCodec(key, iv));
    return {
      encrypt: async (plain) => (await js).encrypt(plain),
      decrypt: async (wire) => (await js).decrypt(wire),
    };
  }
  const cryptoKey = subtle.importKey('raw', keyBytes, { name: 'AES-CBC' }, false, ['encrypt', 'decrypt']);
  const algorithm = { name: 'AES-CBC', iv: ivBytes };
  return {
    async encrypt(plain) {
      return bytesToBase64(new Uint8Array(await subtle.encrypt(algorithm, await cryptoKey, new TextEncoder().encode(plain))));
    },
    async decrypt(wire) {
      const cipher = cipherBytes(wire);
      let plain: ArrayBuffer;
      try {
        plain = await subtle.decrypt(algorithm, await cryptoKey, cipher);
      } catch {
        throw new CodecError(TEXT_NOT_DECRYPTED);
      }
      return utf8Text(new Uint8Array(plain));
    },
  };
}
