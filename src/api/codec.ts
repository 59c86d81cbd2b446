/**
 * The AES transport of SPEC §7 and the key rule of §5: request and response bodies are
 * AES-128-CBC with PKCS#7 padding, carried as base64 text. The wire format is
 * byte-identical to CryptoJS's `AES.encrypt(Utf8.parse(json), key, { iv, mode: CBC,
 * padding: Pkcs7 }).toString()` with key and IV given as UTF-8 word arrays, so the
 * production backend and the reference server read the same bytes.
 */
import { cbc } from '@noble/ciphers/aes.js';
import { utf8ToBytes } from '@noble/ciphers/utils.js';

export class CodecError extends Error {
  override name = 'CodecError';
}

export interface AesCodec {
  encrypt(plain: string): string;
  decrypt(wire: string): string;
}

const BLOCK = 16;

function sixteenBytes(label: 'key' | 'IV', value: string): Uint8Array {
  const bytes = utf8ToBytes(value);
  if (bytes.length !== BLOCK) {
    throw new CodecError(`The encryption ${label} must be exactly 16 bytes (got ${bytes.length}).`);
  }
  return bytes;
}

/** Builds the codec; throws CodecError when key or IV is not exactly 16 bytes (§5). */
export function createAesCodec(key: string, iv: string): AesCodec {
  const keyBytes = sixteenBytes('key', key);
  const ivBytes = sixteenBytes('IV', iv);
  return {
    encrypt(plain) {
      return bytesToBase64(cbc(keyBytes, ivBytes).encrypt(utf8ToBytes(plain)));
    },
    decrypt(wire) {
      const cipher = base64ToBytes(wire.trim());
      if (cipher.length === 0 || cipher.length % BLOCK !== 0) {
        throw new CodecError('The encrypted body is not a whole number of AES blocks.');
      }
      let plain: Uint8Array;
      try {
        plain = cbc(keyBytes, ivBytes).decrypt(cipher);
      } catch {
        throw new CodecError('The encrypted body could not be decrypted.');
      }
      try {
        return new TextDecoder('utf-8', { fatal: true }).decode(plain);
      } catch {
        throw new CodecError('The decrypted body is not UTF-8 text.');
      }
    },
  };
}

const B64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

export function bytesToBase64(bytes: Uint8Array): string {
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) {
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  }
  return btoa(binary);
}

export function base64ToBytes(text: string): Uint8Array {
  if (!B64.test(text)) throw new CodecError('The body is not base64 text.');
  const binary = atob(text);
  const out = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) out[i] = binary.charCodeAt(i);
  return out;
}

