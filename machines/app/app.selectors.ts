/** Snapshot → view model for the root actor; screens read these through useSelector. */
import type { SnapshotFrom } from 'xstate';
import type { AppMachine } from './app.machine';
import type { AppMode } from './app.paths';

export type AppSnapshot = SnapshotFrom<AppMachine>;

/** What the shell of the app shows around the routes. */
export type SessionPhase = 'starting' | 'signedOut' | 'signedIn' | 'failed';

export function selectPhase(s: AppSnapshot): SessionPhase {
  if (s.matches('signedOut')) return 'signedOut';
  // A visitor is signed in too (with a visitor's session), without the session child.
  if (s.matches('signedIn') || s.matches('visiting')) return 'signedIn';
  if (s.matches('profileFailed')) return 'failed';
  return 'starting'; // booting, clearingSession, loadingProfile, closingForUpdate, signingOut
}

export const selectMode = (s: AppSnapshot): AppMode | null =>
  s.matches({ signedIn: 'host' }) ? 'host' : s.matches({ signedIn: 'restricted' }) || s.matches('visiting') ? 'restricted' : null;

/** A visitor (SPEC §6: login and register only): screens ask them to sign up where they would act. */
export const selectIsVisitor = (s: AppSnapshot): boolean => s.matches('visiting');

export const selectUnread = (s: AppSnapshot): number => s.context.unread;
export const selectProfile = (s: AppSnapshot) => s.context.profile;
export const selectFormError = (s: AppSnapshot): string | null => s.context.formError;
export const selectLoadError = (s: AppSnapshot): string | null => s.context.loadError;
export const selectSubmitting = (s: AppSnapshot): boolean => s.matches({ signedOut: 'submitting' });
