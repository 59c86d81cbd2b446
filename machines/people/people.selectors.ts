/** People snapshots → what the profile, edit and Mine screens show (one primitive per selector). */
import type { SnapshotFrom } from 'xstate';
import type { FollowCountsMachine } from './follow-counts.machine';
import type { ProfileEditMachine } from './profile-edit.machine';
import type { UserProfileMachine } from './user-profile.machine';

type UserProfileSnapshot = SnapshotFrom<UserProfileMachine>;
type ProfileEditSnapshot = SnapshotFrom<ProfileEditMachine>;
type FollowCountsSnapshot = SnapshotFrom<FollowCountsMachine>;

export const selectProfilePhase = (s: UserProfileSnapshot): 'loading' | 'failed' | 'loaded' =>
  s.matches('loading') ? 'loading' : s.matches('failed') ? 'failed' : 'loaded';
export const selectDetail = (s: UserProfileSnapshot) => s.context.detail;
export const selectProfileError = (s: UserProfileSnapshot) => s.context.error;
export const selectActionError = (s: UserProfileSnapshot) => s.context.actionError;
export const selectSavingFollow = (s: UserProfileSnapshot): boolean => s.matches({ loaded: { follow: 'saving' } });
export const selectSavingBlock = (s: UserProfileSnapshot): boolean => s.matches({ loaded: { block: 'saving' } });

export type EditPhase = 'idle' | 'uploading' | 'saving';
export const selectEditPhase = (s: ProfileEditSnapshot): EditPhase =>
  s.matches('uploading') ? 'uploading' : s.matches('saving') ? 'saving' : 'idle';
export const selectOwnProfile = (s: ProfileEditSnapshot) => s.context.profile;
export const selectEditError = (s: ProfileEditSnapshot) => s.context.error;
export const selectUploadPurpose = (s: ProfileEditSnapshot) => s.context.purpose;
/** Upload progress in whole percent, or null when nothing uploads (or the size is unknown yet). */
export const selectUploadPercent = (s: ProfileEditSnapshot): number | null => {
  const progress = s.context.progress;
  if (!s.matches('uploading') || !progress || progress.total <= 0) return null;
  return Math.min(100, Math.floor((progress.loaded / progress.total) * 100));
};

export const selectCounts = (s: FollowCountsSnapshot) => s.context.counts;
