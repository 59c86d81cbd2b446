/** The people machines' actors, written against the PeoplePort only; screens and tests compose through these. */
import { fromCallback, fromPromise } from 'xstate';
import { errorText } from '../paged-list/paged-list.machine';
import { followCountsMachine } from './follow-counts.machine';
import type { FollowCounts } from './follow-counts.machine';
import type { OwnProfile, PeoplePort, ProfileChanges, ProfileDetail, ProfileTarget } from './people.port';
import { profileEditMachine } from './profile-edit.machine';
import type { ProfileEditEvent, UploadInput } from './profile-edit.machine';
import { userProfileMachine } from './user-profile.machine';
import type { BlockChange, FollowChange } from './user-profile.machine';

export function composeUserProfile(port: Pick<PeoplePort, 'loadProfile' | 'setFollowed' | 'setBlocked'>) {
  return userProfileMachine.provide({
    actors: {
      load: fromPromise<ProfileDetail, ProfileTarget>(({ input }) => port.loadProfile(input)),
      setFollowed: fromPromise<{ followed: boolean; followerCount: number }, FollowChange>(
        ({ input }) => port.setFollowed(input.userId, input.follow),
      ),
      setBlocked: fromPromise<boolean, BlockChange>(({ input }) => port.setBlocked(input.userId, input.blocked)),
    },
  });
}

export function composeProfileEdit(port: Pick<PeoplePort, 'saveProfile' | 'upload'>) {
  return profileEditMachine.provide({
    actors: {
      upload: fromCallback<ProfileEditEvent, UploadInput>(({ input, sendBack }) => {
        const controller = new AbortController();
        port.upload(input.file, (progress) => sendBack({ type: 'upload.progress', progress }), controller.signal).then(
          (media) => sendBack({ type: 'upload.done', media }),
          (error: unknown) => { if (!controller.signal.aborted) sendBack({ type: 'upload.failed', error: errorText(error) }); },
        );
        return () => controller.abort();
      }),
      save: fromPromise<OwnProfile, ProfileChanges>(({ input }) => port.saveProfile(input)),
    },
  });
}

export function composeFollowCounts(port: Pick<PeoplePort, 'loadOwnCounts'>) {
  return followCountsMachine.provide({
    actors: { load: fromPromise<FollowCounts, void>(() => port.loadOwnCounts()) },
  });
}
