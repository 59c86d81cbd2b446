/**
 * Media uploads (src/api/contract/media.ts, upload.ts): type checked by the first bytes,
 * size-limited, stored under a random name, served same-origin with byte ranges, and
 * accepted by /api/user/updateUserInfo.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ResultCode, TEXT_UPDATE_REQUIRED } from '../../src/api/codes';
import { endpoints } from '../../src/api/contract';
import {
  TEXT_UPLOAD_EMPTY, TEXT_UPLOAD_TOO_LARGE, TEXT_UPLOAD_TYPE, UPLOAD_MAX_PICTURE_BYTES, UPLOAD_MAX_VIDEO_BYTES, UPLOAD_PATH,
  type UploadedMedia,
} from '../../src/api/contract/media';
import { SEED_PASSWORD } from '../db/seed';
import { apiHeaders, device, startTestServer, type CallOptions, type TestServer } from '../testing/harness';
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
