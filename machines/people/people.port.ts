/**
 * What the people screens need from the world (SPEC §2 /userProfile, /profile, /followList; §3
 * User profile and Current user; §7 getUserDetail, followUser, blockUser / removeBlockUser,
 * updateUserInfo and the media upload), in the screens' words. src/screens implement it over
 * the API; tests use manual-mode fakes.
 */
import type { OnlineStatus, TagRef } from '../home-list/home-list.port';

/** SPEC §3 picList item: 1 picture, 2 video. */
export interface Media {
  mediaType: 1 | 2;
  mediaUrl: string;
}

/** Who a profile is of: by user id (lists) or by IM account (the talk screen). */
export type ProfileTarget = { userId: number } | { yxAccid: string };

/** Another person's profile (SPEC §3 User profile with the card fields). */
export interface ProfileDetail {
  userId: number;
  yxAccid: string;
  nickname: string;
  icon: string;
  /** 2 host, 1 user. */
  userType: number;
  userLevel: number;
  levelName: string;
  age: number | null;
  countryName: string | null;
  countryCode: string | null;
  isVip: boolean;
  onlineGroupStatus: OnlineStatus;
  videoPrice: number;
  tags: readonly TagRef[];
  picList: readonly Media[];
  isFollowed: boolean;
  isBlockUser: boolean;
  followerCount: number;
  followingCount: number;
  /** A host live now (a live room on air, as the server says): the profile offers the room. */
  living: boolean;
}

/** The caller's own editable profile (SPEC §3 Current user). */
export interface OwnProfile {
  userId: number;
  nickname: string;
  icon: string;
  picList: readonly Media[];
}

export interface ProfileChanges {
  nickname?: string;
  icon?: string;
  picList?: readonly Media[];
}

export interface UploadProgress {
  loaded: number;
  total: number;
}

export interface PeoplePort {
  loadProfile(target: ProfileTarget): Promise<ProfileDetail>;
  /** Follows (true) or unfollows; answers whether the caller follows now and the person's follower count. */
  setFollowed(userId: number, follow: boolean): Promise<{ followed: boolean; followerCount: number }>;
  /** Blocks (true) or unblocks; answers whether the caller blocks now. */
  setBlocked(userId: number, blocked: boolean): Promise<boolean>;
  /** The caller's follower and following counts. */
  loadOwnCounts(): Promise<{ followerCount: number; followingCount: number }>;
  /** Saves the given parts of the caller's profile; answers the whole of it. */
  saveProfile(changes: ProfileChanges): Promise<OwnProfile>;
  /** Uploads a picture or video, reporting progress; an aborted signal cancels it. */
  upload(file: Blob, onProgress: (progress: UploadProgress) => void, signal: AbortSignal): Promise<Media>;
}
