/** Cards for the home list's tests. */
import type { HostCard } from './home-list.port';

let nextId = 1;
/** A host card; ids count up unless given. */
export function host(userId = nextId++, change: Partial<HostCard> = {}): HostCard {
  return {
    kind: 'host', userId, yxAccid: `yx${userId}`, nickname: `Host ${userId}`, icon: `/avatars/h${userId}.svg`,
    userLevel: 1, levelName: 'Lv.1', age: 22, countryName: 'Brazil', countryCode: 'BR', isVip: false,
    onlineGroupStatus: 1, videoPrice: 40, cover: `/avatars/h${userId}.svg`, tags: [], ...change,
  };
}
