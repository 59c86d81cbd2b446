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

export const UploadedMedia = z.object({
  mediaType: z.union([z.literal(1), z.literal(2)]),
  /** Same-origin path of the stored file. */
  mediaUrl: z.string(),
});
export type UploadedMedia = z.output<typeof UploadedMedia>;
