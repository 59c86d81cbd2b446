/**
 * The people port over the encrypted API and the upload service (SPEC §7 getUserDetail,
 * followUser, blockUser / removeBlockUser, updateUserInfo; the media upload). Failures are
 * shown by the screens themselves, so requests are silent.
 */
import type {
  Media, OwnProfile, PeoplePort, ProfileDetail, ProfileTarget,
} from '../../../machines/people/people.port';
import type { ApiClient } from '../../api/client';
import * as chat from '../../api/contract/chat';
import * as people from '../../api/contract/people';
import type { UserDetail } from '../../api/contract/people';
import type { Uploader } from '../../api/upload';

const silent = { silent: true } as const;

export const profileDetailOf = (d: UserDetail): ProfileDetail => ({
  userId: d.userId, yxAccid: d.yxAccid, nickname: d.nickname, icon: d.icon, userType: d.userType, userLevel: d.userLevel,
  levelName: d.levelName, age: d.age, countryName: d.countryName, countryCode: d.countryCode, isVip: d.isVip,
  onlineGroupStatus: d.onlineGroupStatus, videoPrice: d.videoPrice, tags: d.tags, picList: d.picList, isFollowed: d.isFollowed,
  isBlockUser: d.isBlockUser, followerCount: d.followerCount, followingCount: d.followingCount, living: d.living,
});

/** `me`: the signed-in person's user id (their own counts). */
export function createPeoplePort(api: ApiClient, upload: Uploader, me: number): PeoplePort {
  return {
    async loadProfile(target: ProfileTarget) {
      return profileDetailOf(await api.data(people.getUserDetail, target, silent));
    },
    async setFollowed(userId, follow) {
      const answer = await api.data(people.followUser, { beFollowUserId: userId, follow }, silent);
      return { followed: answer.followed, followerCount: answer.followerCount };
    },
    async setBlocked(userId, blocked) {
      const answer = await api.data(blocked ? chat.blockUser : chat.removeBlockUser, { beBlockUserId: userId }, silent);
      return answer.blocked;
    },
    async loadOwnCounts() {
      const detail = await api.data(people.getUserDetail, { userId: me }, silent);
      return { followerCount: detail.followerCount, followingCount: detail.followingCount };
    },
    async saveProfile(changes) {
      const { picList, ...rest } = changes;
      const mine = await api.data(people.updateUserInfo, {
        ...rest,
        ...(picList ? { picList: picList.map((m) => ({ mediaType: m.mediaType, mediaUrl: m.mediaUrl })) } : {}),
      }, silent);
      const own: OwnProfile = { userId: mine.userId, nickname: mine.nickname, icon: mine.icon, picList: mine.picList };
      return own;
    },
    async upload(file, onProgress, signal): Promise<Media> {
      return upload(file, onProgress, signal);
    },
  };
}
