/**
 * Editing one's own profile (SPEC §2 /profile; §3 Current user: nickname, icon, picList with
 * mediaType 1 picture / 2 video; §7 updateUserInfo and the media upload).
 *
 *   idle ─edit.saveNickname─▶ saving
 *        ─edit.upload (avatar | media)─▶ uploading ─upload.progress─▶ uploading (progress)
 *                                                  ─upload.done─▶ saving (icon, or picList + the new item)
 *                                                  ─upload.failed─▶ idle (error)
 *                                                  ─edit.cancelUpload─▶ idle (the upload is aborted)
 *        ─edit.removeMedia─▶ saving (picList without it)
 *   saving ─done─▶ idle (the saved profile; `profile.saved` emitted with what was saved) ─error─▶ idle (error)
 *
 * One change at a time: while something uploads or saves, other edits have no transition.
 * The file travels in the event to the upload actor; context keeps only facts (progress).
 */
import { assign, emit, fromCallback, fromPromise } from 'xstate';
import { setup } from '../setup';
import { errorText } from '../paged-list/paged-list.machine';
import type { Media, OwnProfile, ProfileChanges, UploadProgress } from './people.port';

export type UploadPurpose = 'avatar' | 'media';

export interface ProfileEditContext {
  profile: OwnProfile;
  /** What the running upload is for. */
  purpose: UploadPurpose | null;
  progress: UploadProgress | null;
  /** What the running save sends. */
  changes: ProfileChanges | null;
  error: string | null;
}

export type ProfileEditEvent =
  | { type: 'edit.saveNickname'; nickname: string }
  | { type: 'edit.upload'; file: Blob; purpose: UploadPurpose }
  | { type: 'edit.cancelUpload' }
  | { type: 'edit.removeMedia'; index: number }
  | { type: 'upload.progress'; progress: UploadProgress }
  | { type: 'upload.done'; media: Media }
  | { type: 'upload.failed'; error: string };

/** `changes`: what the save sent (a nickname, an icon, a picList), so the screen can say what was saved. */
export type ProfileEditEmitted = { type: 'profile.saved'; profile: OwnProfile; changes: ProfileChanges };

export interface UploadInput {
  file: Blob;
}

export const profileEditMachine = setup({
  types: {
    input: {} as { profile: OwnProfile },
    context: {} as ProfileEditContext,
    events: {} as ProfileEditEvent,
    emitted: {} as ProfileEditEmitted,
  },
  actors: {
    /** Reports `upload.progress`, then `upload.done` or `upload.failed`; stopping it aborts the upload. */
    upload: fromCallback<ProfileEditEvent, UploadInput>(({ sendBack }) => {
      sendBack({ type: 'upload.failed', error: 'upload not provided' });
    }),
    save: fromPromise<OwnProfile, ProfileChanges>(() => Promise.reject(new Error('save not provided'))),
  },
  guards: {
    listedMedia: ({ context, event }) =>
      event.type === 'edit.removeMedia' && Number.isInteger(event.index) && event.index >= 0 && event.index < context.profile.picList.length,
  },
}).createMachine({
  id: 'profileEdit',
  context: ({ input }) => ({ profile: input.profile, purpose: null, progress: null, changes: null, error: null }),
  initial: 'idle',
  states: {
    idle: {
      // Cleared here rather than on leaving `saving`: exit actions run before the transition's,
      // and the save's answer says what it saved.
      entry: assign({ changes: null, purpose: null }),
      on: {
        'edit.saveNickname': {
          target: 'saving',
          actions: assign({ changes: ({ event }) => ({ nickname: event.nickname }), error: null }),
        },
        'edit.upload': {
          target: 'uploading',
          actions: assign({ purpose: ({ event }) => event.purpose, progress: null, error: null }),
        },
        'edit.removeMedia': {
          guard: 'listedMedia',
          target: 'saving',
          actions: assign({
            changes: ({ context, event }) => ({ picList: context.profile.picList.filter((_, i) => i !== event.index) }),
            error: null,
          }),
        },
      },
    },
    uploading: {
      invoke: {
        id: 'upload',
        src: 'upload',
        input: ({ event }) => ({ file: event.type === 'edit.upload' ? event.file : new Blob() }),
      },
      on: {
        'upload.progress': { actions: assign({ progress: ({ event }) => event.progress }) },
        'upload.done': {
          target: 'saving',
          actions: assign({
            changes: ({ context, event }) => (context.purpose === 'avatar'
              ? { icon: event.media.mediaUrl }
              : { picList: [...context.profile.picList, event.media] }),
          }),
        },
        'upload.failed': { target: 'idle', actions: assign({ error: ({ event }) => event.error, purpose: null }) },
        'edit.cancelUpload': { target: 'idle', actions: assign({ purpose: null }) },
      },
      // Exit actions run before the transition's, so `purpose` stays until the save is made.
      exit: assign({ progress: null }),
    },
    saving: {
      invoke: {
        id: 'save',
        src: 'save',
        input: ({ context }) => context.changes ?? {},
        onDone: {
          target: 'idle',
          actions: [
            assign({ profile: ({ event }) => event.output }),
            emit(({ context, event }) => ({ type: 'profile.saved' as const, profile: event.output, changes: context.changes ?? {} })),
          ],
        },
        onError: { target: 'idle', actions: assign({ error: ({ event }) => errorText(event.error) }) },
      },
    },
  },
});

export type ProfileEditMachine = typeof profileEditMachine;
