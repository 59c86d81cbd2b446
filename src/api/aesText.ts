/**
 * What the AES transport of SPEC §7 is around its cipher: the 16-byte key and IV, whole
 * blocks, base64 on the wire, UTF-8 inside, the errors a bad body gets, and the codec's shape
 * as the browser's client uses it. Without a cipher of its own, so that the first screen can
 * use the browser's (src/api/webCodec.ts) and load the JavaScript one only where it must.
 */

export class CodecError extends Error {
  override name = 'CodecError';
}

/**
 * The AES transport as the client sends and reads it: WebCrypto's is asynchronous, the
 * JavaScript cipher's (src/api/codec.ts) synchronous; the client awaits either.
 */
export interface WireCodec {
  encrypt(plain: string): string | Promise<string>;
  decrypt(wire: string): string | Promise<string>;
}

export const BLOCK = 16;

export const TEXT_NOT_BLOCKS = 'The encrypted body is not a whole number of AES blocks.';
export const TEXT_NOT_DECRYPTED = 'The encrypted body could not be decrypted.';
export const TEXT_NOT_UTF8 = 'The decrypted body is not UTF-8 text.';

export function sixteenBytes(label: 'key' | 'IV', value: string): Uint8Array<ArrayBuffer> {
  const bytes = new TextEncoder().encode(value);
  if (bytes.length !== BLOCK) {
    throw new CodecError(`The encryption ${label} must be exactly 16 bytes (got ${bytes.length}).`);
  }
  return bytes;
}

/** The cipher text of a wire body (base64 of whole blocks); CodecError otherwise. */
export function cipherBytes(wire: string): Uint8Array<ArrayBuffer> {
  const cipher = base64ToBytes(wire.trim());
  if (cipher.length === 0 || cipher.length % BLOCK !== 0) throw new CodecError(TEXT_NOT_BLOCKS);
  return cipher;
}

/** Decrypted bytes as text; CodecError when they are not UTF-8. */
export function utf8Text(plain: Uint8Array): string {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(plain);
  } catch {
    throw new CodecError(TEXT_NOT_UTF8);
  }
}

const B64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

export function bytesToBase64(bytes: Uint8Array): string {
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) {
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  }
  return btoa(binary);
}

export function base64ToBytes(text: string): Uint8Array<ArrayBuffer> {
  if (!B64.test(text)) throw new CodecError('The body is not base64 text.');
  const binary = atob(text);
  const out = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) out[i] = binary.charCodeAt(i);
  return out;
}
