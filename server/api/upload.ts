/**
 * Media uploads for the profile (src/api/contract/media.ts): `POST /api/upload` takes one
 * picture or video as the raw body, checks its type by its first bytes and its size, stores
 * it under a random name in `dir` and answers its same-origin URL; `GET /media/<name>` serves
 * the stored files (with single byte ranges, which video players ask for).
 *
 * The answer is the API's encrypted envelope, with the API's checks in the same order: app
 * version (1004), session (1005), then the file (1000 with a readable message).
 */
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { AesCodec } from '../../src/api/codec';
import { Header, MIN_APP_VERSION, ResultCode, SUCCESS, TEXT_UPDATE_REQUIRED } from '../../src/api/codes';
import {
  TEXT_UPLOAD_EMPTY, TEXT_UPLOAD_TOO_LARGE, TEXT_UPLOAD_TYPE, UPLOAD_MAX_PICTURE_BYTES, UPLOAD_MAX_VIDEO_BYTES, UPLOAD_PATH,
  UPLOAD_TYPES, type UploadType, type UploadedMedia,
} from '../../src/api/contract/media';
import type { AuthSession } from '../auth/sessions';
import { compareVersions, TEXT_INVALID_REQUEST, TEXT_SESSION_EXPIRED } from './transport';

export interface UploadOptions {
  codec: AesCodec;
  findSession(token: string): AuthSession | undefined;
  /** Where the files are kept (created when missing). */
  dir: string;
}

const STORED_NAME = /^[a-f0-9]{32}\.(png|jpg|gif|webp|mp4|webm)$/;
const CONTENT_TYPE_OF_EXT: Readonly<Record<string, UploadType>> = Object.fromEntries(
  Object.entries(UPLOAD_TYPES).map(([type, { ext }]) => [ext, type as UploadType]),
);

const ascii = (bytes: Buffer, from: number, text: string) => bytes.subarray(from, from + text.length).toString('latin1') === text;

/** Whether the file's first bytes are those of `type`. */
export function looksLike(type: UploadType, bytes: Buffer): boolean {
  switch (type) {
    case 'image/png': return bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
    case 'image/jpeg': return bytes.subarray(0, 3).equals(Buffer.from([0xff, 0xd8, 0xff]));
    case 'image/gif': return ascii(bytes, 0, 'GIF87a') || ascii(bytes, 0, 'GIF89a');
    case 'image/webp': return ascii(bytes, 0, 'RIFF') && ascii(bytes, 8, 'WEBP');
    case 'video/mp4': return ascii(bytes, 4, 'ftyp');
    case 'video/webm': return bytes.subarray(0, 4).equals(Buffer.from([0x1a, 0x45, 0xdf, 0xa3]));
  }
}

function header(request: FastifyRequest, name: string): string {
  const value = request.headers[name];
  return (Array.isArray(value) ? value[0] : value) ?? '';
}

export async function mediaUploads(app: FastifyInstance, { codec, findSession, dir }: UploadOptions): Promise<void> {
  await mkdir(dir, { recursive: true });
  const answer = (reply: FastifyReply, code: string, message: string, data?: UploadedMedia) =>
    reply.code(200).header('content-type', 'text/plain;charset=utf-8').header('cache-control', 'no-store')
      .send(codec.encrypt(JSON.stringify(data === undefined ? { code, message } : { code, message, data })));

  // This plugin's context only: every body is read as bytes, up to the larger (video) limit.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: UPLOAD_MAX_VIDEO_BYTES }, (_request, body, done) => done(null, body));

  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE') return answer(reply, ResultCode.invalidRequest, TEXT_UPLOAD_TOO_LARGE);
    if (error.statusCode !== undefined && error.statusCode < 500) return answer(reply, ResultCode.invalidRequest, TEXT_INVALID_REQUEST);
    request.log.error(error);
    return reply.code(500).type('text/plain; charset=utf-8').send('Internal Server Error');
  });

  app.post(UPLOAD_PATH, async (request, reply) => {
    if (compareVersions(header(request, Header.appVersion), MIN_APP_VERSION) < 0) {
      return answer(reply, ResultCode.updateRequired, TEXT_UPDATE_REQUIRED);
    }
    const token = header(request, Header.loginToken) || header(request, Header.anchorToken);
    if (!token || !findSession(token)) return answer(reply, ResultCode.authFailed, TEXT_SESSION_EXPIRED);

    const type = header(request, 'content-type').split(';', 1)[0]!.trim().toLowerCase();
    const body = request.body;
    if (!Object.hasOwn(UPLOAD_TYPES, type)) return answer(reply, ResultCode.invalidRequest, TEXT_UPLOAD_TYPE);
    if (!Buffer.isBuffer(body) || body.length === 0) return answer(reply, ResultCode.invalidRequest, TEXT_UPLOAD_EMPTY);
    const kind = UPLOAD_TYPES[type as UploadType];
    const limit = kind.mediaType === 1 ? UPLOAD_MAX_PICTURE_BYTES : UPLOAD_MAX_VIDEO_BYTES;
    if (body.length > limit) return answer(reply, ResultCode.invalidRequest, TEXT_UPLOAD_TOO_LARGE);
    if (!looksLike(type as UploadType, body)) return answer(reply, ResultCode.invalidRequest, TEXT_UPLOAD_TYPE);

    const name = `${randomBytes(16).toString('hex')}.${kind.ext}`;
    await writeFile(join(dir, name), body, { flag: 'wx' });
    return answer(reply, SUCCESS, 'success', { mediaType: kind.mediaType, mediaUrl: `/media/${name}` });
  });

  app.get<{ Params: { file: string } }>('/media/:file', async (request, reply) => {
    const match = STORED_NAME.exec(request.params.file);
    const notFound = () => reply.code(404).type('text/plain; charset=utf-8').send('Not Found');
    if (!match) return notFound();
    const path = join(dir, request.params.file);
    let size: number;
    try {
      size = (await stat(path)).size;
    } catch {
      return notFound();
    }
    reply
      .type(CONTENT_TYPE_OF_EXT[match[1]!]!)
      .header('cache-control', 'public, max-age=31536000, immutable')
      .header('accept-ranges', 'bytes');
    const range = /^bytes=(\d*)-(\d*)$/.exec(header(request, 'range'));
    if (!range || (range[1] === '' && range[2] === '')) {
      return reply.header('content-length', size).send(createReadStream(path));
    }
    // 'a-b', 'a-' or '-n' (the last n bytes).
    const start = range[1] === '' ? Math.max(0, size - Number(range[2])) : Number(range[1]);
    const end = range[1] === '' || range[2] === '' ? size - 1 : Math.min(Number(range[2]), size - 1);
    if (start > end || start >= size) return reply.code(416).header('content-range', `bytes */${size}`).send();
    return reply
      .code(206)
      .header('content-range', `bytes ${start}-${end}/${size}`)
      .header('content-length', end - start + 1)
      .send(createReadStream(path, { start, end }));
  });
}
