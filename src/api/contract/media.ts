/**
 * Uploading a picture or video for the profile (/profile: avatar and picList, SPEC §3 Current
 * user). SPEC §7 names no upload call; this one is the reference server's. It is not an
 * `Endpoint`: the body is the file itself, not AES-carried JSON.
 *
 *   POST /api/upload
 *   Content-Type: image/png | image/jpeg | image/gif | image/webp | video/mp4 | video/webm
 *   x-login-token, x-app-version (as every API call); body: the file's bytes
 *   200 AES ciphertext of the envelope { code, message, data: UploadedMedia } (as every API answer)
 *
 * The server checks the file's first bytes against the declared type, refuses anything else
 * (code 1000 with TEXT_UPLOAD_TYPE) and anything over the size limit (TEXT_UPLOAD_TOO_LARGE),
 * stores it under a random name and serves it same-origin at the answered `mediaUrl`
 * (`/media/<32 hex>.<ext>`), which /api/user/updateUserInfo accepts.
 *
 * Who may upload and how much: visitors may not (code 1020, as every endpoint they may not
 * use); a person has at most UPLOAD_IN_FLIGHT uploads in progress at once (TEXT_UPLOAD_BUSY)
 * and UPLOAD_DAILY_FILES files or UPLOAD_DAILY_BYTES bytes stored per UTC day
 * (TEXT_UPLOAD_QUOTA); refused and broken uploads do not count. The quota is kept in the
 * database, so a restart does not reset it.
 */
import * as z from 'zod/mini';

export const UPLOAD_PATH = '/api/upload';

/** Accepted types, their file extension and their SPEC §3 mediaType (1 picture, 2 video). */
export const UPLOAD_TYPES = {
  'image/png': { ext: 'png', mediaType: 1 },
  'image/jpeg': { ext: 'jpg', mediaType: 1 },
  'image/gif': { ext: 'gif', mediaType: 1 },
  'image/webp': { ext: 'webp', mediaType: 1 },
  'video/mp4': { ext: 'mp4', mediaType: 2 },
  'video/webm': { ext: 'webm', mediaType: 2 },
} as const;
export type UploadType = keyof typeof UPLOAD_TYPES;

export const UPLOAD_MAX_PICTURE_BYTES = 5 * 1024 * 1024;
export const UPLOAD_MAX_VIDEO_BYTES = 20 * 1024 * 1024;

export const TEXT_UPLOAD_TYPE = 'Only PNG, JPEG, GIF or WebP pictures and MP4 or WebM videos can be uploaded.';
export const TEXT_UPLOAD_TOO_LARGE = 'The file is too large: pictures up to 5 MB, videos up to 20 MB.';
export const TEXT_UPLOAD_EMPTY = 'The file is empty.';

/** Uploads one person may have in progress at once: a picture and a video side by side, not a flood. */
export const UPLOAD_IN_FLIGHT = 2;
/** Files one person may store per UTC day: a full profile (avatar and 9 pictures or videos) three times over. */
export const UPLOAD_DAILY_FILES = 30;
/** Bytes one person may store per UTC day: a full profile of 20 MB videos, and as much again. */
export const UPLOAD_DAILY_BYTES = 400 * 1024 * 1024;

export const TEXT_UPLOAD_BUSY = 'Please wait until your other uploads have finished.';
/** The quota refusal for a server's limits (the reference server's are the constants above). */
export const textUploadQuota = (files: number, bytes: number): string =>
  `You have reached today's upload limit (${files} files or ${Math.round(bytes / (1024 * 1024))} MB). Please try again tomorrow.`;

/**
 * Same-origin paths a stored picture or video may point at: seeded avatars and pictures, and
 * uploads (`/media/<32 hex>.<ext>`).
 */
export const SAME_ORIGIN_MEDIA = /^\/(?:avatars\/[A-Za-z0-9_-]{1,64}\.svg|media\/[a-f0-9]{32}\.(?:png|jpg|gif|webp|mp4|webm))$/;
export const MEDIA_URL_MAX = 1024;

/** Whether `hostname` is `pattern` (`cdn.example.com`), or under it for `*.example.com`; case does not matter. */
export function mediaHostMatches(hostname: string, pattern: string): boolean {
  const host = hostname.toLowerCase();
  const want = pattern.trim().toLowerCase();
  return want.startsWith('*.') ? host.endsWith(want.slice(1)) && host.length > want.length - 1 : host === want;
}

/**
 * Whether a server may store `url` as a picture or video that every viewer's app will load
 * (an avatar, a profile picture or video, a live cover, a secret message's media): a
 * same-origin media path, or an https URL (SPEC §5) on one of the deployment's media `hosts`,
 * with no user name, password or port. Anything else would point every viewer at a server the
 * deployment does not know (and the app's Content-Security-Policy would block it anyway).
 */
export function isAllowedMediaUrl(url: string, hosts: readonly string[]): boolean {
  if (url.length > MEDIA_URL_MAX) return false;
  if (SAME_ORIGIN_MEDIA.test(url)) return true;
  if (!/^https:\/\//i.test(url) || /\s/.test(url)) return false;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return false;
  }
  if (parsed.username || parsed.password || parsed.port) return false;
  return hosts.some((pattern) => mediaHostMatches(parsed.hostname, pattern));
}

export const UploadedMedia = z.object({
  mediaType: z.union([z.literal(1), z.literal(2)]),
  /** Same-origin path of the stored file. */
  mediaUrl: z.string(),
});
export type UploadedMedia = z.output<typeof UploadedMedia>;
