import { MinePage } from './MinePage';

/** The host's workspace: the pages of a host's working day (SPEC §6 host role). */
const WORKSPACE = [
  { to: '/liveSetting', label: 'Go live' },
  { to: '/wallet', label: 'Wallet' },
  { to: '/task', label: 'Tasks' },
  { to: '/dailyTask', label: 'Daily tasks' },
  { to: '/dataStatistics', label: 'Data statistics' },
  { to: '/invite', label: 'Invite' },
  { to: '/pointsRank', label: 'Points ranking' },
  { to: '/rank', label: 'Ranking' },
  { to: '/beautySettings', label: 'Beauty settings' },
  { to: '/followList', label: 'Follow list' },
  { to: '/profile', label: 'Edit profile' },
  { to: '/settings', label: 'Settings' },
] as const;

export default function MineScreen() {
  return <MinePage workspace={WORKSPACE} />;
}
