/** Endpoints of the session: login, registration, visitor entry and the current user (SPEC §7 Users). */
import * as z from 'zod/mini';
import { Empty, ImageUrl, defineEndpoint } from './endpoint';

const text = (min: number, max: number) => z.string().check(z.trim(), z.minLength(min), z.maxLength(max));

/** The device part of SPEC §3 stored auth data, sent with every sign-in. */
export const DeviceInfo = z.object({
  deviceType: text(1, 32),
  deviceId: text(1, 128),
  deviceNo: text(1, 128),
  osType: text(1, 32),
  osVersion: text(1, 32),
  appVersion: text(1, 32),
});
export type DeviceInfo = z.output<typeof DeviceInfo>;

export const Account = text(3, 64);
export const Password = z.string().check(z.minLength(6), z.maxLength(64));
export const Nickname = text(1, 24);

/** What every successful sign-in returns. */
export const SignedIn = z.object({
  token: z.string(),
  loginUuid: z.string(),
  userId: z.number(),
  userType: z.number(),
});

export const login = defineEndpoint({
  path: '/api/login/v4/login',
  method: 'POST',
  auth: 'none',
  request: z.extend(DeviceInfo, { account: Account, password: Password }),
  response: SignedIn,
});

export const register = defineEndpoint({
  path: '/api/login/register',
  method: 'POST',
  auth: 'none',
  request: z.extend(DeviceInfo, { account: Account, password: Password, nickname: Nickname }),
  response: SignedIn,
});

export const visit = defineEndpoint({
  path: '/api/login/visit',
  method: 'POST',
  auth: 'none',
  request: DeviceInfo,
  response: SignedIn,
});

export const MediaItem = z.object({
  mediaType: z.union([z.literal(1), z.literal(2)]),
  mediaUrl: ImageUrl,
});

/** Current user (mineInfo / host info) of SPEC §3. */
export const MineInfo = z.object({
  userId: z.number(),
  userType: z.number(),
  yxAccid: z.string(),
  imToken: z.string(),
  icon: ImageUrl,
  nickname: z.string(),
  isNewUser: z.boolean(),
  vipInfo: z.object({ isVip: z.boolean() }),
  userLevel: z.number(),
  picList: z.array(MediaItem),
  countryId: z.optional(z.number()),
  /** A visitor (SPEC §6: login and register only); reference server, absent for everyone else. */
  isVisitor: z.optional(z.boolean()),
});

/** The signed-in person's own profile ("host info lookup" of SPEC §7). */
export const userInfo = defineEndpoint({
  path: '/api/anchor/userInfo',
  method: 'POST',
  auth: 'session',
  visitors: 'allowed',
  request: Empty,
  response: MineInfo,
});

/** Ends the server session of the token (reference server; the client calls it on logout). */
export const logout = defineEndpoint({
  path: '/api/login/logout',
  method: 'POST',
  auth: 'session',
  visitors: 'allowed',
  request: Empty,
  response: z.nullable(z.object({})),
});
