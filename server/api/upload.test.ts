/**
 * Media uploads (src/api/contract/media.ts, upload.ts): type checked by the first bytes,
 * size-limited, stored under a random name, served same-origin with byte ranges, and
 * accepted by /api/user/updateUserInfo; streamed to disk, refused to visitors, limited per
 * person in flight and per day (kept across a restart).
 */
import { request as httpRequest } from 'node:http';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ResultCode, TEXT_UPDATE_REQUIRED, TEXT_VISITOR_REFUSED } from '../../src/api/codes';
import { endpoints } from '../../src/api/contract';
import {
  TEXT_UPLOAD_BUSY, TEXT_UPLOAD_EMPTY, TEXT_UPLOAD_TOO_LARGE, TEXT_UPLOAD_TYPE, UPLOAD_MAX_PICTURE_BYTES, UPLOAD_MAX_VIDEO_BYTES,
  UPLOAD_PATH, textUploadQuota, type UploadedMedia,
} from '../../src/api/contract/media';
import { SEED_PASSWORD } from '../db/seed';
import { apiHeaders, codec, device, startTestServer, type CallOptions, type TestServer } from '../testing/harness';
import { TEXT_SESSION_EXPIRED } from './transport';

let server: TestServer;
let token: string;
beforeAll(async () => {
  server = await startTestServer({ build: false });
  token = (await server.call(endpoints.login, { ...device, account: 'host1@example.com', password: SEED_PASSWORD })).data!.token;
});
afterAll(() => server.close());

const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.from('rest of a png file')]);
const JPEG = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(100, 7)]);
const MP4 = Buffer.concat([Buffer.from([0, 0, 0, 0x18]), Buffer.from('ftypisom'), Buffer.alloc(1000, 1)]);
const WEBP = Buffer.concat([Buffer.from('RIFF'), Buffer.from([0, 0, 0, 0]), Buffer.from('WEBPVP8 ')]);

async function upload(type: string, body: Buffer, opts: CallOptions = { token }) {
  const answer = await server.post(UPLOAD_PATH, new Uint8Array(body), { ...apiHeaders(opts), 'content-type': type });
  expect(answer.status).toBe(200);
  return JSON.parse(answer.plain!) as { code: string; message: string; data?: UploadedMedia };
}

describe('POST /api/upload', () => {
  it('stores a picture and a video and serves them same-origin, byte for byte', async () => {
    const picture = await upload('image/png', PNG);
    expect(picture).toMatchObject({ code: ResultCode.success, data: { mediaType: 1 } });
    expect(picture.data!.mediaUrl).toMatch(/^\/media\/[a-f0-9]{32}\.png$/);
    const served = await fetch(server.base + picture.data!.mediaUrl);
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('image/png');
    expect(served.headers.get('x-content-type-options')).toBe('nosniff');
    expect(Buffer.from(await served.arrayBuffer()).equals(PNG)).toBe(true);

    const video = await upload('video/mp4; codecs="avc1"', MP4);
    expect(video.data).toMatchObject({ mediaType: 2, mediaUrl: expect.stringMatching(/\.mp4$/) });
    expect((await upload('image/jpeg', JPEG)).data!.mediaUrl).toMatch(/\.jpg$/);
    expect((await upload('image/webp', WEBP)).data!.mediaUrl).toMatch(/\.webp$/);
    // Stored beside the database.
    expect(readdirSync(join(server.dbPath, '..', 'media'))).toHaveLength(4);
  });

  it('answers byte ranges, as video players ask', async () => {
    const { data } = await upload('video/mp4', MP4);
    const url = server.base + data!.mediaUrl;
    const part = await fetch(url, { headers: { range: 'bytes=4-11' } });
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe(`bytes 4-11/${MP4.length}`);
    expect(Buffer.from(await part.arrayBuffer()).toString()).toBe('ftypisom');
    const tail = await fetch(url, { headers: { range: 'bytes=-10' } });
    expect(Buffer.from(await tail.arrayBuffer()).equals(MP4.subarray(-10))).toBe(true);
    expect((await fetch(url, { headers: { range: `bytes=${MP4.length}-` } })).status).toBe(416);
  });

  it('refuses a type it does not take, and a file whose bytes are not of its declared type', async () => {
    const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>');
    expect(await upload('image/svg+xml', svg)).toEqual({ code: ResultCode.invalidRequest, message: TEXT_UPLOAD_TYPE });
    expect(await upload('text/html', Buffer.from('<html>'))).toEqual({ code: ResultCode.invalidRequest, message: TEXT_UPLOAD_TYPE });
    expect(await upload('image/png', JPEG)).toEqual({ code: ResultCode.invalidRequest, message: TEXT_UPLOAD_TYPE });
    expect(await upload('video/webm', MP4)).toEqual({ code: ResultCode.invalidRequest, message: TEXT_UPLOAD_TYPE });
    expect(await upload('image/png', Buffer.alloc(0))).toEqual({ code: ResultCode.invalidRequest, message: TEXT_UPLOAD_EMPTY });
  });

  it('refuses a picture over 5 MB and a video over 20 MB', async () => {
    const bigPicture = Buffer.concat([PNG, Buffer.alloc(UPLOAD_MAX_PICTURE_BYTES)]);
    expect(await upload('image/png', bigPicture)).toEqual({ code: ResultCode.invalidRequest, message: TEXT_UPLOAD_TOO_LARGE });
    const bigVideo = Buffer.concat([MP4, Buffer.alloc(UPLOAD_MAX_VIDEO_BYTES)]);
    expect(await upload('video/mp4', bigVideo)).toEqual({ code: ResultCode.invalidRequest, message: TEXT_UPLOAD_TOO_LARGE });
  });

  it('[§8] needs a session (1005) and a current app (1004)', async () => {
    expect(await upload('image/png', PNG, {})).toEqual({ code: ResultCode.authFailed, message: TEXT_SESSION_EXPIRED });
    expect(await upload('image/png', PNG, { token, appVersion: '0.9.0' }))
      .toEqual({ code: ResultCode.updateRequired, message: TEXT_UPDATE_REQUIRED });
  });

  it('serves only stored names: anything else is 404', async () => {
    for (const path of ['/media/0123456789abcdef0123456789abcdef.png', '/media/app.db', '/media/..%2Fapp.db', '/media/x.svg']) {
      expect((await fetch(server.base + path)).status).toBe(404);
    }
  });

  it('gives URLs that /api/user/updateUserInfo accepts', async () => {
    const picture = (await upload('image/png', PNG)).data!;
    const video = (await upload('video/mp4', MP4)).data!;
    const res = await server.call(endpoints.updateUserInfo, { icon: picture.mediaUrl, picList: [picture, video] }, { token });
    expect(res.data).toMatchObject({ icon: picture.mediaUrl, picList: [picture, video] });
  });
});

type Answer = { code: string; message: string; data?: UploadedMedia };

/**
 * An upload whose body the test writes piece by piece (chunked, or with a declared length),
 * to see what the server does before the body is complete.
 */
function openUpload(target: TestServer, type: string, token: string, length?: number) {
  const url = new URL(target.base + UPLOAD_PATH);
  const headers: Record<string, string | number> = { ...apiHeaders({ token }), 'content-type': type };
  if (length !== undefined) headers['content-length'] = length;
  const req = httpRequest({ host: url.hostname, port: url.port, path: url.pathname, method: 'POST', headers });
  req.on('error', () => undefined);
  const answer = new Promise<Answer>((resolve, reject) => {
    req.on('response', (res) => {
      const parts: Buffer[] = [];
      res.on('data', (c: Buffer) => parts.push(c));
      res.on('end', () => resolve(JSON.parse(codec.decrypt(Buffer.concat(parts).toString())) as Answer));
      res.on('error', reject);
    });
  });
  req.flushHeaders();
  return {
    answer,
    write: (bytes: Buffer) => new Promise<void>((resolve) => req.write(bytes, () => resolve())),
    end: (bytes?: Buffer) => req.end(bytes),
    abort: () => req.destroy(),
  };
}

/** Resolves with the value, or with 'pending' when it has not settled within `ms`. */
const within = <T>(promise: Promise<T>, ms: number) =>
  Promise.race([promise, new Promise<'pending'>((resolve) => setTimeout(() => resolve('pending'), ms))]);

const stored = (target: TestServer) => readdirSync(join(target.dbPath, '..', 'media'));
const waitFor = async (check: () => boolean) => {
  for (let i = 0; i < 100 && !check(); i++) await new Promise((r) => setTimeout(r, 20));
  expect(check()).toBe(true);
};

describe('POST /api/upload: streamed, and limited per person', () => {
  let limited: TestServer;
  let clock = Date.UTC(2026, 0, 10, 12);
  const LIMITS = { inFlight: 2, dailyFiles: 4, dailyBytes: 1024 * 1024 };
  const start = (dbPath?: string) =>
    startTestServer({ build: false, uploads: { ...LIMITS, now: () => clock }, ...(dbPath ? { dbPath } : {}) });
  const signIn = async (target: TestServer, account: string) =>
    (await target.call(endpoints.login, { ...device, account, password: SEED_PASSWORD })).data!.token;
  const send = async (target: TestServer, who: string, type: string, body: Buffer) => {
    const answer = await target.post(UPLOAD_PATH, new Uint8Array(body), { ...apiHeaders({ token: who }), 'content-type': type });
    return JSON.parse(answer.plain!) as Answer;
  };
  beforeAll(async () => {
    limited = await start();
  });
  afterAll(() => limited.close());

  it('[§6] refuses a visitor before reading the file, and writes nothing', async () => {
    const visitor = (await limited.call(endpoints.visit, { ...device, deviceId: 'upload-visitor' })).data!.token;
    const before = stored(limited).length;
    // 16 uploads of a declared 19 MiB: each is answered at once, with none of its body sent.
    const uploads = Array.from({ length: 16 }, () => openUpload(limited, 'video/mp4', visitor, 19 * 1024 * 1024));
    const answers = await Promise.all(uploads.map((u) => within(u.answer, 2000)));
    uploads.forEach((u) => u.abort());
    expect(answers).toEqual(Array(16).fill({ code: ResultCode.visitorRefused, message: TEXT_VISITOR_REFUSED }));
    expect(stored(limited)).toHaveLength(before);
  });

  it('refuses a declared length over the limit before the body comes', async () => {
    const token = await signIn(limited, 'user1@example.com');
    const upload = openUpload(limited, 'image/png', token, UPLOAD_MAX_PICTURE_BYTES + 1);
    expect(await within(upload.answer, 2000)).toEqual({ code: ResultCode.invalidRequest, message: TEXT_UPLOAD_TOO_LARGE });
    upload.abort();
  });

  it('checks the type by the first bytes as they come, and stops a body that grows past the limit, keeping no partial file', async () => {
    const before = stored(server);
    // A body that is not a PNG is refused on its first bytes, while the rest is still to come.
    const wrong = openUpload(server, 'image/png', token);
    await wrong.write(JPEG);
    expect(await within(wrong.answer, 2000)).toEqual({ code: ResultCode.invalidRequest, message: TEXT_UPLOAD_TYPE });
    wrong.abort();
    // A chunked body (no declared length) is stopped once it passes the picture limit.
    const big = openUpload(server, 'image/png', token);
    await big.write(PNG);
    const chunk = Buffer.alloc(256 * 1024, 1);
    let sent = PNG.length;
    while ((await within(big.answer, 5)) === 'pending' && sent <= UPLOAD_MAX_PICTURE_BYTES + chunk.length) {
      await big.write(chunk);
      sent += chunk.length;
    }
    expect(await big.answer).toEqual({ code: ResultCode.invalidRequest, message: TEXT_UPLOAD_TOO_LARGE });
    expect(sent).toBeGreaterThan(UPLOAD_MAX_PICTURE_BYTES);
    big.abort();
    await waitFor(() => stored(server).length === before.length);
    expect(stored(server)).toEqual(before);
  });

  it('deletes the partial file of an upload that is broken off', async () => {
    const token = await signIn(limited, 'user3@example.com');
    const before = stored(limited);
    const upload = openUpload(limited, 'video/mp4', token);
    await upload.write(MP4);
    await waitFor(() => stored(limited).some((name) => name.startsWith('.partial-')));
    upload.abort();
    await waitFor(() => stored(limited).length === before.length);
    expect(stored(limited)).toEqual(before);
    // Its place in flight is given back.
    expect((await send(limited, token, 'image/png', PNG)).code).toBe(ResultCode.success);
  });

  it('takes at most two uploads in flight per person', async () => {
    const token = await signIn(limited, 'user4@example.com');
    // Two videos declared twice as long as their first half, which is all that comes for now.
    const first = openUpload(limited, 'video/mp4', token, MP4.length * 2);
    const second = openUpload(limited, 'video/mp4', token, MP4.length * 2);
    await Promise.all([first.write(MP4), second.write(MP4)]);
    await waitFor(() => stored(limited).filter((name) => name.startsWith('.partial-')).length === 2);
    expect(await send(limited, token, 'image/png', PNG)).toEqual({ code: ResultCode.invalidRequest, message: TEXT_UPLOAD_BUSY });
    // Someone else is not held up.
    expect((await send(limited, await signIn(limited, 'host2@example.com'), 'image/png', PNG)).code).toBe(ResultCode.success);
    first.end(MP4);
    second.end(MP4);
    expect((await first.answer).code).toBe(ResultCode.success);
    expect((await second.answer).code).toBe(ResultCode.success);
    expect((await send(limited, token, 'image/png', PNG)).code).toBe(ResultCode.success);
  });

  it('keeps a daily quota of files and bytes across a restart, and a new day starts afresh', async () => {
    const quota = { code: ResultCode.invalidRequest, message: textUploadQuota(LIMITS.dailyFiles, LIMITS.dailyBytes) };
    let token = await signIn(limited, 'host3@example.com');
    // Bytes: 600 KiB, then a declared 600 KiB more is over the 1 MiB of the day.
    const large = Buffer.concat([PNG, Buffer.alloc(600 * 1024 - PNG.length)]);
    expect((await send(limited, token, 'image/png', large)).code).toBe(ResultCode.success);
    expect(await send(limited, token, 'image/png', large)).toEqual(quota);
    for (let i = 0; i < LIMITS.dailyFiles - 1; i++) expect((await send(limited, token, 'image/png', PNG)).code).toBe(ResultCode.success);
    expect(await send(limited, token, 'image/png', PNG)).toEqual(quota);

    const dbPath = limited.dbPath;
    await limited.app.close();
    limited = await start(dbPath);
    token = await signIn(limited, 'host3@example.com');
    expect(await send(limited, token, 'image/png', PNG)).toEqual(quota);
    clock += 24 * 3600 * 1000;
    expect((await send(limited, token, 'image/png', PNG)).code).toBe(ResultCode.success);
  });
});
