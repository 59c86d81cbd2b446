/** Snapshot → what the feedback form shows (one primitive per selector, `shallowEqual` for the lists). */
import type { SnapshotFrom } from 'xstate';
import { charCount } from './feedback.machine';
import type { FeedbackKind, FeedbackMachine } from './feedback.machine';

type FeedbackSnapshot = SnapshotFrom<FeedbackMachine>;

export type FeedbackPhase = 'loadingTypes' | 'typesFailed' | 'form' | 'sent';

export function selectFeedbackPhase(snapshot: FeedbackSnapshot): FeedbackPhase {
  if (snapshot.matches('loadingTypes')) return 'loadingTypes';
  if (snapshot.matches('typesFailed')) return 'typesFailed';
  if (snapshot.matches('sent')) return 'sent';
  return 'form';
}

export const selectKinds = (snapshot: FeedbackSnapshot): readonly FeedbackKind[] => snapshot.context.kinds;
export const selectTypeId = (snapshot: FeedbackSnapshot): number | null => snapshot.context.draft.typeId;
export const selectContent = (snapshot: FeedbackSnapshot): string => snapshot.context.draft.content;
export const selectContact = (snapshot: FeedbackSnapshot): string => snapshot.context.draft.contact;
/** Characters written, as the server counts them. */
export const selectContentLength = (snapshot: FeedbackSnapshot): number => charCount(snapshot.context.draft.content);
export const selectSubmitting = (snapshot: FeedbackSnapshot): boolean => snapshot.matches('submitting');
/** A tap on Send would send (a type chosen and some text, nothing on its way). */
export const selectCanSubmit = (snapshot: FeedbackSnapshot): boolean => snapshot.can({ type: 'feedback.submit' });
/** Why the types could not be read or the server did not take the feedback. */
export const selectError = (snapshot: FeedbackSnapshot): string | null => snapshot.context.error;
