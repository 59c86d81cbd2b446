/**
 * One declaration per endpoint (path, method, request and response schema), read by the
 * client to validate what comes back and by the reference server to validate what comes
 * in and to shape what goes out, so the two sides cannot drift.
 */
import * as z from 'zod/mini';

export interface Endpoint<Req extends z.ZodMiniType = z.ZodMiniType, Res extends z.ZodMiniType = z.ZodMiniType> {
  path: string;
  method: 'POST' | 'GET';
  /** 'session': needs the login token; 'none': reachable signed out. */
  auth: 'session' | 'none';
  request: Req;
  response: Res;
}

/** Marked free of side effects: a declaration no code uses is left out of the bundle. */
// @__NO_SIDE_EFFECTS__
export function defineEndpoint<Req extends z.ZodMiniType, Res extends z.ZodMiniType>(e: Endpoint<Req, Res>): Endpoint<Req, Res> {
  return e;
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
