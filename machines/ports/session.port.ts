/**
 * The session port: what the root app actor needs from the outside world to sign a
 * person in and out (SPEC §3 stored auth data and current user, §4 Login). Adapters in
 * src/adapters implement it over the encrypted API and browser storage.
 */

/** Stored auth and device data of SPEC §3, as supplied by the native shell's open parameters. */
export interface StoredAuth {
  loginUuid: string;
  token: string;
  appId: string;
  deviceType: string;
  deviceId: string;
  deviceNo: string;
  osType: string;
  osVersion: string;
  appVersion: string;
}

/** userType of SPEC §3: 2 is a host (anchor); anything else is a non-host. */
export const USER_TYPE_HOST = 2;

export interface MediaItem {
  /** 1 picture, 2 video (SPEC §3). */
  mediaType: 1 | 2;
  mediaUrl: string;
}

/** The current user (mineInfo / host info) of SPEC §3. */
export interface MineInfo {
  userId: number;
  userType: number;
  yxAccid: string;
  imToken: string;
  icon: string;
  nickname: string;
  isNewUser: boolean;
  vipInfo: { isVip: boolean };
  userLevel: number;
  picList: MediaItem[];
  /** A visitor (SPEC §6: login and register only): no session runs, and acting asks them to sign up. */
  isVisitor?: boolean;
}

export interface Credentials {
  account: string;
  password: string;
}

export interface Registration extends Credentials {
  nickname: string;
}

export type SignInOutcome =
  | { kind: 'signedIn'; auth: StoredAuth }
  /** The server refused the sign-in with a message meant for the form (SPEC §8 1005 on the login call). */
  | { kind: 'refused'; message: string };

export interface SessionPort {
  signIn(credentials: Credentials): Promise<SignInOutcome>;
  register(registration: Registration): Promise<SignInOutcome>;
  /** Visitor entry. */
  visit(): Promise<SignInOutcome>;
  /** Loads the current user under `auth`, which from then on is the session's (and kept for the next open). */
  loadProfile(auth: StoredAuth): Promise<MineInfo>;
  /** A fresh IM token for the signed-in person (SPEC §8 -10005 / -10026). */
  refreshImToken(): Promise<string>;
  /** Ends the session: token and every stored item are cleared. */
  forget(): Promise<void>;
}
