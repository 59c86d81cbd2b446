/**
 * One declaration per endpoint (path, method, request and response schema), read by the
 * client to validate what comes back and by the reference server to validate what comes
 * in and to shape what goes out, so the two sides cannot drift.
 *
 * Each declaration also says who may call it and how large its body may be:
 * - `auth`: 'none' is reachable signed out; 'session' needs a live login token.
 * - `visitors`: a visitor (SPEC §6: login and register only) may call a session endpoint only
 *   when it is marked 'allowed'. Default-deny: an endpoint added without the mark refuses
 *   visitors with code 1020 (ResultCode.visitorRefused) and TEXT_VISITOR_REFUSED. The marked
 *   ones are the person's own profile, logout, app config, and the public catalogue a person
 *   browses before signing up (home tags, lists and banners, countries, host profiles, the
 *   live list) and the station messages: they read, and act on nobody.
 * - `bodyLimit`: the largest body, in bytes of the encrypted (base64) text, that the server
 *   reads; anything larger is refused before it is decrypted, with TEXT_BODY_TOO_LARGE.
 *   Without it: BODY_LIMIT_SIGNED_OUT for `auth: 'none'` (nobody has proven who they are, so
 *   they get the least), BODY_LIMIT_DEFAULT otherwise. An endpoint whose largest valid
 *   request is bigger declares its own (`bodyLimitFor` sizes it).
 */
import * as z from 'zod/mini';

export interface Endpoint<Req extends z.ZodMiniType = z.ZodMiniType, Res extends z.ZodMiniType = z.ZodMiniType> {
  path: string;
  method: 'POST' | 'GET';
  /** 'session': needs the login token; 'none': reachable signed out. */
  auth: 'session' | 'none';
  /** 'allowed': a visitor's session may call it too; left out, visitors are refused. */
  visitors?: 'allowed';
  /** Largest encrypted body in bytes; left out, the default of its `auth` (see above). */
  bodyLimit?: number;
  request: Req;
  response: Res;
}

/** Marked free of side effects: a declaration no code uses is left out of the bundle. */
// @__NO_SIDE_EFFECTS__
export function defineEndpoint<Req extends z.ZodMiniType, Res extends z.ZodMiniType>(e: Endpoint<Req, Res>): Endpoint<Req, Res> {
  return e;
}

/** 4 KiB: a sign-in is about 500 bytes of ciphertext; reading and decrypting more costs the server for nothing. */
export const BODY_LIMIT_SIGNED_OUT = 4 * 1024;
/** 16 KiB: every session endpoint's largest valid request fits, but those that declare their own. */
export const BODY_LIMIT_DEFAULT = 16 * 1024;

/** The body limit the server applies to `endpoint`. */
export function bodyLimitOf(endpoint: Pick<Endpoint, 'auth' | 'bodyLimit'>): number {
  return endpoint.bodyLimit ?? (endpoint.auth === 'none' ? BODY_LIMIT_SIGNED_OUT : BODY_LIMIT_DEFAULT);
}

/**
 * A body limit for a request of at most `jsonBytes` bytes of UTF-8 JSON: its AES-CBC
 * ciphertext (padded to the next 16 bytes) in base64, rounded up to whole KiB.
 */
export function bodyLimitFor(jsonBytes: number): number {
  const base64 = Math.ceil((Math.floor(jsonBytes / 16) + 1) * 16 / 3) * 4;
  return Math.ceil(base64 / 1024) * 1024;
}

export type RequestOf<E extends Endpoint> = z.input<E['request']>;
export type ResponseOf<E extends Endpoint> = z.output<E['response']>;

/** The outer JSON of every encrypted response. */
export const Envelope = z.object({
  code: z.union([z.string(), z.number()]),
  message: z.optional(z.nullable(z.string())),
  data: z.optional(z.unknown()),
});
export type Envelope = z.output<typeof Envelope>;

/** SPEC §5: only https image URLs are used; http is rewritten, relative URLs stay relative. */
export function secureImageUrl(url: string): string {
  return url.replace(/^http:\/\//i, 'https://');
}

export const ImageUrl = z.pipe(z.string(), z.transform(secureImageUrl));

export const Empty = z.object({});
