/**
 * The people port over the API (SPEC §7 getUserDetail, followUser, blockUser / removeBlockUser,
 * updateUserInfo) and the checks a file passes before it is uploaded.
 */
import { describe, expect, it } from 'vitest';
import { chat, people } from '../../api/contract';
import { TEXT_UPLOAD_EMPTY, TEXT_UPLOAD_TOO_LARGE, TEXT_UPLOAD_TYPE, UPLOAD_MAX_PICTURE_BYTES } from '../../api/contract/media';
import { fakeServices } from '../../app/services.fake';
import { TEXT_PICTURE_ONLY, checkFile } from '../profile/FilePicker';
import { createPeoplePort } from './peoplePort';

const detail = {
  userId: 7, yxAccid: 'yx7', nickname: 'Sofia', icon: '/avatars/h7.svg', userType: 2, userLevel: 3, levelName: 'Lv.3', age: 24,
  countryId: 3, countryName: 'Brazil', countryCode: 'BR', isVip: false, onlineGroupStatus: 3, isFollowed: true, videoPrice: 50, tags: [],
  picList: [{ mediaType: 1, mediaUrl: '/avatars/h7-1.svg' }], isBlockUser: false, followerCount: 4, followingCount: 2, living: true,
};
const mine = { userId: 3, userType: 2, yxAccid: 'yx3', imToken: 't', icon: '/avatars/h3.svg', nickname: 'Nova', isNewUser: false, vipInfo: { isVip: false }, userLevel: 1, picList: [] };

describe('[§7] the people port', () => {
  it('profiles by user id or IM account; follow and block by user id; own counts from one\'s own detail', async () => {
    const services = fakeServices({
      [people.getUserDetail.path]: () => detail,
      [people.followUser.path]: (body) => ({ userId: 7, yxAccid: 'yx7', followed: (body as { follow: boolean }).follow, followerCount: 5 }),
      [chat.blockUser.path]: () => ({ userId: 7, yxAccid: 'yx7', blocked: true }),
      [chat.removeBlockUser.path]: () => ({ userId: 7, yxAccid: 'yx7', blocked: false }),
      [people.updateUserInfo.path]: () => mine,
    });
    const port = createPeoplePort(services.api, services.upload, 3);
    expect(await port.loadProfile({ yxAccid: 'yx7' })).toMatchObject({ userId: 7, isFollowed: true, followerCount: 4, living: true });
    expect(await port.setFollowed(7, false)).toEqual({ followed: false, followerCount: 5 });
    expect(await port.setBlocked(7, true)).toBe(true);
    expect(await port.setBlocked(7, false)).toBe(false);
    expect(await port.loadOwnCounts()).toEqual({ followerCount: 4, followingCount: 2 });
    expect(await port.saveProfile({ nickname: 'Nova', picList: [{ mediaType: 2, mediaUrl: '/media/a.mp4' }] }))
      .toEqual({ userId: 3, nickname: 'Nova', icon: '/avatars/h3.svg', picList: [] });
    expect(services.requests.map((r) => [r.path, r.body])).toEqual([
      [people.getUserDetail.path, { yxAccid: 'yx7' }],
      [people.followUser.path, { beFollowUserId: 7, follow: false }],
      [chat.blockUser.path, { beBlockUserId: 7 }],
      [chat.removeBlockUser.path, { beBlockUserId: 7 }],
      [people.getUserDetail.path, { userId: 3 }],
      [people.updateUserInfo.path, { nickname: 'Nova', picList: [{ mediaType: 2, mediaUrl: '/media/a.mp4' }] }],
    ]);
  });
});

describe('[/profile] file checks before an upload', () => {
  const file = (type: string, size: number) => new Blob([new Uint8Array(size)], { type });
  it('takes pictures and videos of the accepted kinds and sizes, and only pictures for the avatar', () => {
    expect(checkFile(file('image/png', 10), true)).toBeNull();
    expect(checkFile(file('video/mp4', 10), false)).toBeNull();
    expect(checkFile(file('video/mp4', 10), true)).toBe(TEXT_PICTURE_ONLY);
    expect(checkFile(file('text/plain', 10), false)).toBe(TEXT_UPLOAD_TYPE);
    expect(checkFile(file('image/svg+xml', 10), true)).toBe(TEXT_PICTURE_ONLY);
    expect(checkFile(file('image/jpeg', 0), false)).toBe(TEXT_UPLOAD_EMPTY);
    expect(checkFile(file('image/jpeg', UPLOAD_MAX_PICTURE_BYTES + 1), false)).toBe(TEXT_UPLOAD_TOO_LARGE);
  });
});
