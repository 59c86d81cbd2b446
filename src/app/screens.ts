/**
 * Every route of SPEC §2, each loaded lazily into its own chunk. `cachedView` marks the
 * cached views of §2 (IndexHome/Home with its Live and Match sub-views, News, Work and
 * Profile on the Mine pages, Circle): they stay mounted, state and scroll position kept,
 * when you leave and come back.
 */
import type { ComponentType } from 'react';

export type ScreenModule = Promise<{ default: ComponentType }>;

export interface ScreenDef {
  path: string;
  load: () => ScreenModule;
  cachedView?: 'Home' | 'News' | 'Circle' | 'Profile';
  /** Reachable without a session (SPEC §6 visitor: login and register only). */
  public?: boolean;
}

export const screens: readonly ScreenDef[] = [
  { path: '/', load: () => import('../screens/home/HomeScreen'), cachedView: 'Home' },
  { path: '/login', load: () => import('../screens/login/LoginScreen'), public: true },
  { path: '/register', load: () => import('../screens/register/RegisterScreen'), public: true },
  { path: '/landingPage', load: () => import('../screens/landing/LandingScreen'), public: true },
  { path: '/beautySettings', load: () => import('../screens/beauty-settings/BeautySettingsScreen') },
  { path: '/chat', load: () => import('../screens/chat/ChatScreen') },
  { path: '/dailyTask', load: () => import('../screens/daily-task/DailyTaskScreen') },
  { path: '/dataStatistics', load: () => import('../screens/data-statistics/DataStatisticsScreen') },
  { path: '/followList', load: () => import('../screens/follow-list/FollowListScreen') },
  { path: '/iframePage', load: () => import('../screens/iframe-page/IframePageScreen') },
  { path: '/circle', load: () => import('../screens/circle/CircleScreen'), cachedView: 'Circle' },
  { path: '/invite', load: () => import('../screens/invite/InviteScreen') },
  { path: '/liveEnds', load: () => import('../screens/live-ends/LiveEndsScreen') },
  { path: '/liveRoom', load: () => import('../screens/live-room/LiveRoomScreen') },
  { path: '/liveSetting', load: () => import('../screens/live-setting/LiveSettingScreen') },
  { path: '/secretSettings', load: () => import('../screens/secret-settings/SecretSettingsScreen') },
  { path: '/userProfile', load: () => import('../screens/user-profile/UserProfileScreen') },
  { path: '/profile', load: () => import('../screens/profile/ProfileScreen') },
  { path: '/vedioRecorder', load: () => import('../screens/video-recorder/VideoRecorderScreen') },
  { path: '/mine', load: () => import('../screens/mine/MineScreen'), cachedView: 'Profile' },
  { path: '/mineRestricted', load: () => import('../screens/mine/MineRestrictedScreen'), cachedView: 'Profile' },
  { path: '/news', load: () => import('../screens/news/NewsScreen'), cachedView: 'News' },
  { path: '/newsRestricted', load: () => import('../screens/news/NewsRestrictedScreen'), cachedView: 'News' },
  { path: '/pointsRank', load: () => import('../screens/points-rank/PointsRankScreen') },
  { path: '/rank', load: () => import('../screens/rank/RankScreen') },
  { path: '/settings', load: () => import('../screens/settings/SettingsScreen') },
  { path: '/task', load: () => import('../screens/task/TaskScreen') },
  { path: '/wallet', load: () => import('../screens/wallet/WalletScreen') },
  { path: '/wallet/withdrawal', load: () => import('../screens/wallet/host/WithdrawalScreen') },
  { path: '/wallet/addCollectionMethod', load: () => import('../screens/wallet/host/AddCollectionMethodScreen') },
  { path: '/wallet/collectionInfo', load: () => import('../screens/wallet/host/CollectionInfoScreen') },
  { path: '/wallet/withdrawalRecord', load: () => import('../screens/wallet/host/WithdrawalRecordScreen') },
  { path: '/talk', load: () => import('../screens/talk/TalkScreen') },
  { path: '/customer-talk', load: () => import('../screens/customer-talk/CustomerTalkScreen') },
  { path: '/usdtPay', load: () => import('../screens/usdt-pay/UsdtPayScreen') },
  { path: '/usdtPay/pay-status', load: () => import('../screens/usdt-pay/PayStatusScreen') },
];

export const cachedScreens = screens.filter((s) => s.cachedView);
export const isCachedPath = (path: string): boolean => cachedScreens.some((s) => s.path === path);
