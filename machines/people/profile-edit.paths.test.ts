/**
 * Generated-path tests of editing one's own profile (SPEC §2 /profile; §7 updateUserInfo and
 * the upload): the upload is a manual callback actor (the test reports its progress and end),
 * the save a manual promise; plus scenarios for avatar, media, removal and cancelling.
 */
import { describe, expect, it } from 'vitest';
import { createActor, fromCallback, fromPromise } from 'xstate';
import type { AnyEventObject, AnyMachineSnapshot, EventObject } from 'xstate';
import { PendingCalls } from '../ports/pending';
import { describeGeneratedPaths, flush } from '../testing/paths';
import type { InspectFn } from '../testing/paths';
import type { Media, OwnProfile, ProfileChanges } from './people.port';
import { selectEditPhase, selectUploadPercent } from './people.selectors';
import { profileEditMachine } from './profile-edit.machine';
import type { ProfileEditEvent, UploadInput } from './profile-edit.machine';

const profile: OwnProfile = { userId: 3, nickname: 'Me', icon: '/avatars/me.svg', picList: [{ mediaType: 1, mediaUrl: '/avatars/p1.svg' }] };
const uploaded: Media = { mediaType: 2, mediaUrl: `/media/${'a'.repeat(32)}.mp4` };
const file = new Blob(['x'], { type: 'video/mp4' });

function manual() {
  const pending = new PendingCalls();
  const uploads: { input: UploadInput; sendBack: (e: ProfileEditEvent) => void; aborted: boolean }[] = [];
  const logic = profileEditMachine.provide({
    actors: {
      upload: fromCallback<ProfileEditEvent, UploadInput>(({ input, sendBack }) => {
        const upload = { input, sendBack, aborted: false };
        uploads.push(upload);
        return () => { upload.aborted = true; };
      }),
      save: fromPromise<OwnProfile, ProfileChanges>(({ input }) => pending.add('save', [input])),
    },
  });
  return { pending, uploads, logic };
}

const samples: AnyEventObject[] = [
  { type: 'edit.saveNickname', nickname: 'New name' },
  { type: 'edit.upload', file, purpose: 'avatar' },
  { type: 'edit.upload', file, purpose: 'media' },
  { type: 'edit.cancelUpload' },
  { type: 'edit.removeMedia', index: 0 },
  { type: 'edit.removeMedia', index: 4 },
  { type: 'upload.progress', progress: { loaded: 5, total: 10 } },
  { type: 'upload.done', media: uploaded },
  { type: 'upload.failed', error: 'The file is too large: pictures up to 5 MB, videos up to 20 MB.' },
  { type: 'xstate.done.actor.save', output: profile },
  { type: 'xstate.error.actor.save', error: new Error('Please enter a nickname.') },
];

const serialize = (c: unknown) => {
  const { purpose, progress, error, changes } = c as { purpose: string | null; progress: unknown; error: string | null; changes: unknown };
  return { purpose, progress: progress !== null, error, changes };
};

async function replay(steps: readonly { event: EventObject; state: AnyMachineSnapshot }[], inspect: InspectFn) {
  const { pending, uploads, logic } = manual();
  const actor = createActor(logic, { input: { profile }, inspect }).start();
  const saved: ProfileChanges[] = [];
  actor.on('profile.saved', (e) => saved.push(e.changes));
  for (const { event, state } of steps) {
    const before = actor.getSnapshot();
    const savedBefore = saved.length;
    if (event.type.startsWith('upload.')) uploads.at(-1)!.sendBack(event as ProfileEditEvent);
    else if (event.type === 'xstate.done.actor.save') pending.latest('save').resolve((event as AnyEventObject).output);
    else if (event.type === 'xstate.error.actor.save') pending.latest('save').reject((event as AnyEventObject).error);
    else actor.send(event as never);
    await flush();
    const snapshot = actor.getSnapshot();
    expect(snapshot.value).toEqual(state.value);
    expect(serialize(snapshot.context)).toEqual(serialize(state.context));
    // The upload runs exactly while uploading: leaving it (done, failed, cancelled) stops and aborts it.
    if (snapshot.matches('uploading')) expect(uploads.at(-1)!.aborted).toBe(false);
    else expect(uploads.every((u) => u.aborted)).toBe(true);
    if (snapshot.matches('saving')) expect(pending.latest('save').args).toEqual([snapshot.context.changes]);
    // A save that is answered says what it saved (the screen confirms a nickname by it); nothing else says anything.
    const answered = before.matches('saving') && event.type === 'xstate.done.actor.save';
    expect(saved.slice(savedBefore)).toEqual(answered ? [before.context.changes] : []);
    if (before.matches('uploading') && event.type === 'upload.done') {
      expect(snapshot.context.changes).toEqual(before.context.purpose === 'avatar'
        ? { icon: uploaded.mediaUrl } : { picList: [...before.context.profile.picList, uploaded] });
    }
  }
  actor.stop();
}

describeGeneratedPaths('profileEdit', profileEditMachine, {
  events: samples,
  inputs: { 'one picture': { profile } },
  serializeContext: serialize,
  minPaths: 20,
  replay: (path, { inspect }) => replay(path.steps, inspect),
});

describe('[§2 /profile] editing one\'s profile', () => {
  it('an upload reports progress, then saves the picList with the new item and emits the saved profile', async () => {
    const { pending, uploads, logic } = manual();
    const actor = createActor(logic, { input: { profile } }).start();
    const saved: OwnProfile[] = [];
    actor.on('profile.saved', (e) => saved.push(e.profile));
    actor.send({ type: 'edit.upload', file, purpose: 'media' });
    expect(uploads[0]!.input.file).toBe(file);
    expect(selectUploadPercent(actor.getSnapshot())).toBeNull();
    uploads[0]!.sendBack({ type: 'upload.progress', progress: { loaded: 30, total: 40 } });
    expect(selectUploadPercent(actor.getSnapshot())).toBe(75);
    actor.send({ type: 'edit.saveNickname', nickname: 'ignored while uploading' });
    uploads[0]!.sendBack({ type: 'upload.done', media: uploaded });
    expect(selectEditPhase(actor.getSnapshot())).toBe('saving');
    expect(pending.count('save')).toBe(1);
    const next = { ...profile, picList: [...profile.picList, uploaded] };
    pending.next<OwnProfile>('save').resolve(next);
    await flush();
    expect(saved).toEqual([next]);
    expect(actor.getSnapshot().context.profile).toEqual(next);
  });

  it('cancelling aborts the upload; removing an item saves the list without it', async () => {
    const { pending, uploads, logic } = manual();
    const actor = createActor(logic, { input: { profile } }).start();
    actor.send({ type: 'edit.upload', file, purpose: 'avatar' });
    actor.send({ type: 'edit.cancelUpload' });
    expect(uploads[0]!.aborted).toBe(true);
    actor.send({ type: 'edit.removeMedia', index: 0 });
    expect(pending.next('save').args).toEqual([{ picList: [] }]);
  });
});

describe('composeProfileEdit', () => {
  it('runs the port\'s upload with progress and aborts it when cancelled', async () => {
    const { composeProfileEdit } = await import('./people.actors');
    let signal: AbortSignal | null = null;
    let progress: ((p: { loaded: number; total: number }) => void) | null = null;
    const actor = createActor(composeProfileEdit({
      saveProfile: async () => profile,
      upload: (_file, onProgress, abort) => {
        signal = abort;
        progress = onProgress;
        return new Promise<Media>(() => {});
      },
    }), { input: { profile } }).start();
    actor.send({ type: 'edit.upload', file, purpose: 'media' });
    progress!({ loaded: 1, total: 4 });
    expect(selectUploadPercent(actor.getSnapshot())).toBe(25);
    actor.send({ type: 'edit.cancelUpload' });
    expect(signal!.aborted).toBe(true);
  });

  it('a failed upload says why', async () => {
    const { composeProfileEdit } = await import('./people.actors');
    const actor = createActor(composeProfileEdit({
      saveProfile: async () => profile,
      upload: async () => { throw new Error('Only PNG, JPEG, GIF or WebP pictures and MP4 or WebM videos can be uploaded.'); },
    }), { input: { profile } }).start();
    actor.send({ type: 'edit.upload', file, purpose: 'avatar' });
    await flush();
    expect(actor.getSnapshot().value).toBe('idle');
    expect(actor.getSnapshot().context.error).toMatch(/^Only PNG/);
  });
});
