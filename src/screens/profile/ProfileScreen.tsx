/**
 * /profile (SPEC §2; §3 Current user): edit one's own nickname, avatar, photos and videos,
 * bound to a profileEdit actor. Files are checked for type and size before they are sent,
 * an upload shows its progress and can be cancelled, and each saved change reaches the rest
 * of the app (the Mine card) through the root actor's `profile.updated`.
 */
import { useSelector } from '@xstate/react';
import { useScreenActor } from '../../ui/useScreenActor';
import { useEffect, useMemo, useState } from 'react';
import type { ChangeEvent, FormEvent } from 'react';
import { selectProfile } from '../../../machines/app/app.selectors';
import { composeProfileEdit } from '../../../machines/people/people.actors';
import type { OwnProfile } from '../../../machines/people/people.port';
import {
  selectEditError, selectEditPhase, selectOwnProfile, selectUploadPercent, selectUploadPurpose,
} from '../../../machines/people/people.selectors';
import type { UploadPurpose } from '../../../machines/people/profile-edit.machine';
import { NICKNAME_MAX, PIC_LIST_MAX, TEXT_NICKNAME_EMPTY, TEXT_NICKNAME_TOO_LONG } from '../../api/contract/people';
import { useAppActor } from '../../app/AppActorContext';
import { useServices } from '../../compose/services';
import { showToast } from '../../app/toast';
import { ListMessage } from '../../ui/ListMessage';
import { MediaGrid } from '../../ui/MediaGrid';
import { ScreenFrame } from '../../ui/ScreenFrame';
import { TextField } from '../../ui/TextField';
import { peoplePortOf } from '../../compose/people';
import { FilePicker, checkFile } from './FilePicker';
import '../user-profile/user-profile.css';
import './profile.css';

export default function ProfileScreen() {
  const me = useSelector(useAppActor(), selectProfile);
  return (
    <ScreenFrame title="Edit profile" back>
      {me
        ? <Editor key={me.userId} initial={{ userId: me.userId, nickname: me.nickname, icon: me.icon, picList: me.picList }} />
        : <ListMessage busy>Loading…</ListMessage>}
    </ScreenFrame>
  );
}

export const TEXT_NICKNAME_SAVED = 'Nickname saved.';

/** The nickname's length as a person counts it (an emoji is one). */
const lengthOf = (text: string) => [...text].length;

function Editor({ initial }: { initial: OwnProfile }) {
  const app = useAppActor();
  const { api, upload } = useServices();
  const logic = useMemo(() => composeProfileEdit(peoplePortOf({ api, upload }, initial.userId)), [api, upload, initial.userId]);
  const edit = useScreenActor(logic, { input: { profile: initial } });
  const profile = useSelector(edit, selectOwnProfile);
  const phase = useSelector(edit, selectEditPhase);
  const error = useSelector(edit, selectEditError);
  const percent = useSelector(edit, selectUploadPercent);
  const purpose = useSelector(edit, selectUploadPurpose);
  const [nickname, setNickname] = useState(initial.nickname);
  const [fileError, setFileError] = useState<string | null>(null);
  const busy = phase !== 'idle';

  // Each saved change reaches the rest of the app; a saved nickname is confirmed (the field looks
  // the same before and after, unlike a picture).
  useEffect(() => {
    const sub = edit.on('profile.saved', ({ profile: saved, changes }) => {
      app.send({ type: 'profile.updated', changes: { nickname: saved.nickname, icon: saved.icon, picList: [...saved.picList] } });
      if (changes.nickname !== undefined) showToast(TEXT_NICKNAME_SAVED);
    });
    return () => sub.unsubscribe();
  }, [edit, app]);

  const trimmed = nickname.trim();
  const nicknameError = trimmed === '' ? TEXT_NICKNAME_EMPTY : lengthOf(trimmed) > NICKNAME_MAX ? TEXT_NICKNAME_TOO_LONG : null;
  const saveNickname = (e: FormEvent) => {
    e.preventDefault();
    if (!nicknameError) edit.send({ type: 'edit.saveNickname', nickname: trimmed });
  };
  const pick = (forWhat: UploadPurpose) => (e: ChangeEvent<HTMLInputElement>) => {
    const file = e.target.files?.[0];
    e.target.value = '';
    if (!file) return;
    const problem = checkFile(file, forWhat === 'avatar');
    setFileError(problem);
    if (!problem) edit.send({ type: 'edit.upload', file, purpose: forWhat });
  };

  return (
    <div className="profile-edit" data-phase={phase}>
      <section className="user-profile-head" aria-label="Avatar">
        <img className="avatar" src={profile.icon} alt="Your avatar" width={88} height={88} />
        <FilePicker label="Change avatar" picturesOnly disabled={busy} onChange={pick('avatar')} />
      </section>

      <form className="profile-nickname" onSubmit={saveNickname}>
        <TextField label="Nickname" value={nickname} onChange={setNickname} autoComplete="nickname" />
        <button type="submit" className="button-link button-primary" disabled={busy || nicknameError !== null || trimmed === profile.nickname}>
          Save nickname
        </button>
      </form>
      {nicknameError && trimmed !== '' && <p className="form-error">{nicknameError}</p>}

      <section aria-labelledby="profile-media-title" className="profile-media">
        <h2 id="profile-media-title" className="profile-section-title">Photos and videos ({profile.picList.length}/{PIC_LIST_MAX})</h2>
        {profile.picList.length > 0
          ? <MediaGrid items={profile.picList} owner="you" disabled={busy} onRemove={(index) => edit.send({ type: 'edit.removeMedia', index })} />
          : <p className="muted">Add a photo and a video so people can see you.</p>}
        <FilePicker label="Add photo or video" disabled={busy || profile.picList.length >= PIC_LIST_MAX} onChange={pick('media')} />
      </section>

      {phase === 'uploading' && (
        <div className="profile-upload" role="status">
          <span>{purpose === 'avatar' ? 'Uploading avatar' : 'Uploading'}{percent !== null ? ` ${percent}%` : '…'}</span>
          <progress max={100} value={percent ?? undefined} aria-label="Upload progress" />
          <button type="button" className="text-button" onClick={() => edit.send({ type: 'edit.cancelUpload' })}>Cancel upload</button>
        </div>
      )}
      {phase === 'saving' && <ListMessage busy>Saving…</ListMessage>}
      {(fileError ?? error) && <p className="profile-alert" role="alert">{fileError ?? error}</p>}
    </div>
  );
}
