import { MinePage } from './MinePage';

/** A non-host's workspace (SPEC §6 normal user). */
const WORKSPACE = [
  { to: '/wallet', label: 'Wallet' },
  { to: '/followList', label: 'Follow list' },
  { to: '/profile', label: 'Edit profile' },
  { to: '/settings', label: 'Settings' },
] as const;

export default function MineRestrictedScreen() {
  return <MinePage workspace={WORKSPACE} />;
}
