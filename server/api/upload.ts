/**
 * Media uploads for the profile (src/api/contract/media.ts): `POST /api/upload` takes one
 * picture or video as the raw body, checks its type by its first bytes and its size, stores
 * it under a random name in `dir` and answers its same-origin URL; `GET /media/<name>` serves
 * the stored files (with single byte ranges, which video players ask for).
 *
 * The answer is the API's encrypted envelope. Before a byte of the body is read, a request
 * passes the API's checks in the same order: app version (1004), session (1005), visitor
 * (1020); then the declared type (TEXT_UPLOAD_TYPE), a declared length over the type's limit
 * (TEXT_UPLOAD_TOO_LARGE), and the person's uploads in progress and daily quota
 * (upload.quota.ts: TEXT_UPLOAD_BUSY, the quota text). Then the body streams to a partial file
 * beside the stored ones: its first bytes are checked against the type as soon as they are in,
 * and the stream is stopped at the limit. A refusal or a broken connection deletes the partial
 * file; only a complete, checked file is renamed to its stored name and counted. Nothing holds
 * a whole file in memory.
 */
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, readdir, rename, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { AesCodec } from '../../src/api/codec';
import { Header, MIN_APP_VERSION, ResultCode, SUCCESS, TEXT_UPDATE_REQUIRED, TEXT_VISITOR_REFUSED } from '../../src/api/codes';
import {
  TEXT_UPLOAD_BUSY, TEXT_UPLOAD_EMPTY, TEXT_UPLOAD_TOO_LARGE, TEXT_UPLOAD_TYPE, UPLOAD_DAILY_BYTES, UPLOAD_DAILY_FILES,
  UPLOAD_IN_FLIGHT, UPLOAD_MAX_PICTURE_BYTES, UPLOAD_MAX_VIDEO_BYTES, UPLOAD_PATH, UPLOAD_TYPES, textUploadQuota,
  type UploadType, type UploadedMedia,
} from '../../src/api/contract/media';
import type { AuthSession } from '../auth/sessions';
import type { Db } from '../db/database';
import { compareVersions, TEXT_INVALID_REQUEST, TEXT_SESSION_EXPIRED } from './transport';
import { createUploadQuota, type Reservation, type UploadLimits, type UploadQuotaOptions } from './upload.quota';

export interface UploadOptions {
  codec: AesCodec;
  findSession(token: string): AuthSession | undefined;
  /** Where the files are kept (created when missing). */
  dir: string;
  /** Where the daily quota is kept (`upload_quota`). */
  db: Db;
  /** Per-person limits; default the contract's UPLOAD_IN_FLIGHT, UPLOAD_DAILY_FILES and UPLOAD_DAILY_BYTES. */
  quota?: UploadQuotaOptions;
}

const STORED_NAME = /^[a-f0-9]{32}\.(png|jpg|gif|webp|mp4|webm)$/;
/** A file being received; never served (not a STORED_NAME) and cleared at start. */
const PARTIAL_PREFIX = '.partial-';
const CONTENT_TYPE_OF_EXT: Readonly<Record<string, UploadType>> = Object.fromEntries(
  Object.entries(UPLOAD_TYPES).map(([type, { ext }]) => [ext, type as UploadType]),
);
/** The bytes `looksLike` reads: WebP's 'WEBP' ends at 12. */
const HEAD_BYTES = 12;
/**
 * After a refusal, the rest of a body is read and dropped up to this much, so the sender (a
 * browser still sending) gets to read the answer; beyond it the connection is cut, so a refused
 * upload costs at most this much reading.
 */
const DRAIN_MAX_BYTES = 1024 * 1024;

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

/** A refusal of the file, answered as code 1000 with its sentence. */
class Refused extends Error {}

/** An upload let in: its type, its share of the person's quota, and the refusal for a body that outgrows the share. */
interface Admitted {
  type: UploadType;
  reservation: Extract<Reservation, { ok: true }>;
  overLimit: string;
}

/**
 * A pass-through that refuses a body whose first bytes are not of `type`, an empty one, and one
 * that grows past `limit` (with `overLimit`), as the bytes go by.
 */
function checkedStream(type: UploadType, limit: number, overLimit: string): Transform & { size(): number } {
  let size = 0;
  let head: Buffer | null = Buffer.alloc(0);
  const headIsWrong = (bytes: Buffer) => !looksLike(type, bytes);
  const stream = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      size += chunk.length;
      if (size > limit) return done(new Refused(overLimit));
      if (head !== null) {
        head = Buffer.concat([head, chunk.subarray(0, HEAD_BYTES)]);
        if (head.length >= HEAD_BYTES) {
          const wrong = headIsWrong(head);
          head = null;
          if (wrong) return done(new Refused(TEXT_UPLOAD_TYPE));
        }
      }
      done(null, chunk);
    },
    flush(done) {
      if (size === 0) return done(new Refused(TEXT_UPLOAD_EMPTY));
      // A file shorter than the head is checked as it is.
      if (head !== null && headIsWrong(head)) return done(new Refused(TEXT_UPLOAD_TYPE));
      done();
    },
  });
  return Object.assign(stream, { size: () => size });
}

/**
 * Streams `source` into `path` through `check`. Resolves once the file is complete; rejects
 * with the check's refusal, or when the sender goes away, leaving `source` unread from there.
 */
async function receive(source: Readable, check: Transform, path: string): Promise<void> {
  const aborted = () => check.destroy(new Error('The upload was broken off.'));
  source.once('aborted', aborted);
  source.once('error', aborted);
  source.pipe(check);
  try {
    await pipeline(check, createWriteStream(path, { flags: 'wx' }));
  } finally {
    source.unpipe(check);
    source.off('aborted', aborted);
    source.off('error', aborted);
  }
}

/** Reads the rest of a refused body and drops it, so the sender gets to read the answer; an endless one is cut. */
function drain(source: Readable): void {
  let dropped = 0;
  source.on('data', (chunk: Buffer) => {
    dropped += chunk.length;
    if (dropped > DRAIN_MAX_BYTES) source.destroy();
  });
  source.on('error', () => undefined);
  source.resume();
}

export async function mediaUploads(app: FastifyInstance, options: UploadOptions): Promise<void> {
  const { codec, findSession, dir } = options;
  await mkdir(dir, { recursive: true });
  // Partial files left by a run that stopped mid-upload.
  for (const name of await readdir(dir)) {
    if (name.startsWith(PARTIAL_PREFIX)) await rm(join(dir, name), { force: true });
  }
  const { now, ...given } = options.quota ?? {};
  const limits: UploadLimits = { inFlight: UPLOAD_IN_FLIGHT, dailyFiles: UPLOAD_DAILY_FILES, dailyBytes: UPLOAD_DAILY_BYTES, ...given };
  const quota = createUploadQuota(options.db, limits, now);
  const quotaText = textUploadQuota(limits.dailyFiles, limits.dailyBytes);

  const answer = (reply: FastifyReply, code: string, message: string, data?: UploadedMedia) =>
    reply.code(200).header('content-type', 'text/plain;charset=utf-8').header('cache-control', 'no-store')
      .send(codec.encrypt(JSON.stringify(data === undefined ? { code, message } : { code, message, data })));
  const refuse = (reply: FastifyReply, message: string) => answer(reply, ResultCode.invalidRequest, message);

  // This plugin's context only: the body is handed to the route unread, as the stream it is.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', (_request, payload, done) => done(null, payload));

  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error.statusCode !== undefined && error.statusCode < 500) return refuse(reply, TEXT_INVALID_REQUEST);
    request.log.error(error);
    return reply.code(500).type('text/plain; charset=utf-8').send('Internal Server Error');
  });

  /** What lets an upload in before a byte of it is read: its type, and a reservation of the person's quota; or the refusal. */
  function admit(request: FastifyRequest): Admitted | { refusal: [code: string, message: string] } {
    const no = (message: string, code: string = ResultCode.invalidRequest) => ({ refusal: [code, message] as [string, string] });
    if (compareVersions(header(request, Header.appVersion), MIN_APP_VERSION) < 0) return no(TEXT_UPDATE_REQUIRED, ResultCode.updateRequired);
    const token = header(request, Header.loginToken) || header(request, Header.anchorToken);
    const session = token ? findSession(token) : undefined;
    if (!session) return no(TEXT_SESSION_EXPIRED, ResultCode.authFailed);
    if (session.isVisitor) return no(TEXT_VISITOR_REFUSED, ResultCode.visitorRefused);

    const type = header(request, 'content-type').split(';', 1)[0]!.trim().toLowerCase();
    if (!Object.hasOwn(UPLOAD_TYPES, type)) return no(TEXT_UPLOAD_TYPE);
    const typeLimit = UPLOAD_TYPES[type as UploadType].mediaType === 1 ? UPLOAD_MAX_PICTURE_BYTES : UPLOAD_MAX_VIDEO_BYTES;
    const declared = Number(header(request, 'content-length') || NaN);
    if (declared > typeLimit) return no(TEXT_UPLOAD_TOO_LARGE);
    if (declared === 0) return no(TEXT_UPLOAD_EMPTY);

    // A declared length is what the file takes (the HTTP parser holds the body to it); a chunked body may take the type's limit.
    const wanted = declared > 0 ? declared : typeLimit;
    const reservation = quota.reserve(session.userId, wanted);
    if (!reservation.ok) return no(reservation.reason === 'busy' ? TEXT_UPLOAD_BUSY : quotaText);
    // Less than wanted is left of today's bytes: a declared file does not fit, a chunked one may grow as far as what is left.
    if (declared > reservation.bytes) {
      reservation.release();
      return no(quotaText);
    }
    return { type: type as UploadType, reservation, overLimit: reservation.bytes < wanted ? quotaText : TEXT_UPLOAD_TOO_LARGE };
  }

  app.post(UPLOAD_PATH, async (request, reply) => {
    const source = request.body as Readable;
    const admitted = admit(request);
    if ('refusal' in admitted) {
      // The sender gets to read the answer; whatever of the body it sends is dropped, not stored.
      drain(source);
      return answer(reply, ...admitted.refusal);
    }
    const { type, reservation, overLimit } = admitted;
    const kind = UPLOAD_TYPES[type];
    const name = `${randomBytes(16).toString('hex')}.${kind.ext}`;
    const partial = join(dir, `${PARTIAL_PREFIX}${name}`);
    const check = checkedStream(type, reservation.bytes, overLimit);
    try {
      await receive(source, check, partial);
      await rename(partial, join(dir, name));
      reservation.commit(check.size());
    } catch (err) {
      reservation.release();
      await rm(partial, { force: true });
      if (!(err instanceof Refused)) throw err;
      drain(source);
      return refuse(reply, err.message);
    }
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
