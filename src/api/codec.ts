/**
 * The AES transport of SPEC §7 and the key rule of §5: request and response bodies are
 * AES-128-CBC with PKCS#7 padding, carried as base64 text. The wire format is
 * byte-identical to CryptoJS's `AES.encrypt(Utf8.parse(json), key, { iv, mode: CBC,
 * padding: Pkcs7 }).toString()` with key and IV given as UTF-8 word arrays, so the
 * production backend and the reference server read the same bytes.
 *
 * This is the cipher in JavaScript (@noble/ciphers), synchronous: the reference server's and
 * the tests', and the browser's where WebCrypto is not there (src/api/webCodec.ts). Its module
 * builds the cipher's tables as it loads, which is why the first screen does not load it.
 */
import { cbc } from '@noble/ciphers/aes.js';
import { CodecError, TEXT_NOT_DECRYPTED, bytesToBase64, cipherBytes, sixteenBytes, utf8Text } from './aesText';

export { CodecError, base64ToBytes, bytesToBase64 } from './aesText';

export interface AesCodec {
  encrypt(plain: string): string;
  decrypt(wire: string): string;
}

/** Builds the codec; throws CodecError when key or IV is not exactly 16 bytes (§5). */
export function createAesCodec(key: string, iv: string): AesCodec {
  const keyBytes = sixteenBytes('key', key);
  const ivBytes = sixteenBytes('IV', iv);
  return {
    encrypt(plain) {
      return bytesToBase64(cbc(keyBytes, ivBytes).encrypt(new TextEncoder().encode(plain)));
    },
    decrypt(wire) {
      const cipher = cipherBytes(wire);
      let plain: Uint8Array;
      try {
        plain = cbc(keyBytes, ivBytes).decrypt(cipher);
      } catch {
        throw new CodecError(TEXT_NOT_DECRYPTED);
      }
      return utf8Text(plain);
    },
  };
}
