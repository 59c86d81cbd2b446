/**
 * /liveSetting (SPEC §2): the title (up to LIVE_TITLE_MAX), an optional cover, the
 * private-call switch and the wishlist, then Go live. Go live asks the owner to begin
 * (`onGoLive`: the session's `live.begin`) once per attempt, however often it is tapped; the
 * live hosting actor then says how it goes, and a refusal shows the server's words.
 */
import { useSelector } from '@xstate/react';
import { useId, useState } from 'react';
import type { ChangeEvent, FormEvent } from 'react';
import { hostingPhaseOf } from '../../../machines/live-hosting/live-hosting.selectors';
import type { LiveHostingRef } from '../../../machines/live-hosting/live-hosting.selectors';
import type { LiveSetting, LiveSummary } from '../../../machines/live-hosting/live-hosting.types';
import { LIVE_TITLE_MAX } from '../../api/contract/live';
import { useServices } from '../../app/services';
import { WishlistEditor } from './WishlistEditor';
import './live-setting.css';

export const TEXT_COVER_FAILED = 'The cover could not be uploaded. Please try another picture.';

export interface LiveSettingFormProps {
  /** The host's live while one runs (it is gone once it ends or is refused). */
  hosting: LiveHostingRef | undefined;
  /** How the last live ended or was refused (code null: it never went live; text: why). */
  lastLive: LiveSummary | null;
  onGoLive: (setting: LiveSetting) => void;
  /** Back to the room of the live on air. */
  onOpenRoom: () => void;
}

export function LiveSettingForm({ hosting, lastLive, onGoLive, onOpenRoom }: LiveSettingFormProps) {
  const id = useId();
  const { upload } = useServices();
  const phase = useSelector(hosting, (s) => (s ? hostingPhaseOf(s) : null));
  const [title, setTitle] = useState('');
  const [cover, setCover] = useState<string | null>(null);
  const [coverState, setCoverState] = useState<'none' | 'uploading' | 'failed'>('none');
  const [privateCallOpen, setPrivateCallOpen] = useState(true);
  // What there was when Go live was tapped: until the live (or its refusal) comes, another tap is the same ask.
  const [asked, setAsked] = useState<{ hosting: LiveHostingRef | undefined; lastLive: LiveSummary | null } | null>(null);
  const busy = phase === 'starting' || phase === 'publishing' || phase === 'onAir' || phase === 'ending';
  const waiting = asked !== null && asked.hosting === hosting && asked.lastLive === lastLive;
  // A refusal of this screen's ask, in the server's words (the refused live is over at once: its summary says why).
  const failure = asked !== null && !hosting && lastLive !== asked.lastLive && lastLive?.code === null ? lastLive.text : null;
  const disabled = busy || waiting || coverState === 'uploading';

  const chooseCover = async (e: ChangeEvent<HTMLInputElement>) => {
    const file = e.target.files?.[0];
    e.target.value = '';
    if (!file) return;
    setCoverState('uploading');
    try {
      const { mediaUrl } = await upload(file, () => {});
      setCover(mediaUrl);
      setCoverState('none');
    } catch {
      setCoverState('failed');
    }
  };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (disabled) return;
    setAsked({ hosting, lastLive });
    onGoLive({ title: title.trim(), ...(cover ? { cover } : {}), privateCallOpen });
  };
  return (
    <div className="live-setting" data-phase={phase ?? 'idle'}>
      <form id={`${id}-form`} className="live-setting-form" aria-label="Go live" onSubmit={submit}>
        <div className="field">
          <label className="field-label" htmlFor={`${id}-title`}>Title</label>
          <input id={`${id}-title`} className="field-input" value={title} maxLength={LIVE_TITLE_MAX} aria-describedby={`${id}-count`} onChange={(e) => setTitle(e.target.value)} />
          <span id={`${id}-count`} className="muted live-setting-count">{`${title.length}/${LIVE_TITLE_MAX}`}</span>
        </div>
        <div className="field">
          <span className="field-label" id={`${id}-cover`}>Cover (optional)</span>
          <div className="live-setting-cover">
            {cover && <img src={cover} alt="Cover" width={96} height={128} />}
            <label className="button-link live-setting-file">
              {coverState === 'uploading' ? 'Uploading…' : cover ? 'Change cover' : 'Choose cover'}
              <input type="file" accept="image/*" className="visually-hidden" aria-labelledby={`${id}-cover`} disabled={coverState === 'uploading'} onChange={(e) => void chooseCover(e)} />
            </label>
            {cover && <button type="button" className="text-button" onClick={() => setCover(null)}>Remove cover</button>}
          </div>
          {coverState === 'failed' && <p className="form-error" role="alert">{TEXT_COVER_FAILED}</p>}
        </div>
        <label className="live-setting-switch">
          <input type="checkbox" role="switch" checked={privateCallOpen} onChange={(e) => setPrivateCallOpen(e.target.checked)} />
          <span>Private calls</span>
        </label>
      </form>
      <WishlistEditor />
      {failure && <p className="form-error" role="alert" data-testid="go-live-failure">{failure}</p>}
      {phase === 'onAir' ? (
        <button type="button" className="button-link button-primary button-block live-setting-go" onClick={onOpenRoom}>Open live room</button>
      ) : (
        <button type="submit" form={`${id}-form`} className="button-link button-primary button-block live-setting-go" disabled={disabled} aria-busy={busy || waiting}>
          {busy || waiting ? 'Going live…' : 'Go live'}
        </button>
      )}
    </div>
  );
}
