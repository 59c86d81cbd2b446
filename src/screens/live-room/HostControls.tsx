/**
 * The host's controls on air: the private-call switch (SPEC §2 /liveRoom, updatePrivateCall;
 * the switch shows what the server has, and is held while a change is on its way) and End live
 * with a confirmation (the machine ends once, whatever is tapped meanwhile).
 */
import { useSelector } from '@xstate/react';
import { useId, useState } from 'react';
import type { LiveHostingRef, LiveHostingView } from '../../../machines/live-hosting/live-hosting.selectors';

export function PrivateCallSwitch({ hosting, view }: { hosting: LiveHostingRef; view: LiveHostingView }) {
  const id = useId();
  return (
    <label className="live-switch" htmlFor={id} data-testid="private-call-switch" data-state={view.switchingPrivateCall ? 'switching' : view.privateCallOpen ? 'on' : 'off'}>
      <input
        id={id}
        type="checkbox"
        role="switch"
        checked={view.privateCallOpen}
        disabled={view.switchingPrivateCall}
        onChange={(e) => hosting.send({ type: 'live.setPrivateCall', open: e.target.checked })}
      />
      <span>Private calls</span>
    </label>
  );
}

export function EndLive({ hosting }: { hosting: LiveHostingRef }) {
  const titleId = useId();
  const [confirming, setConfirming] = useState(false);
  const onAir = useSelector(hosting, (s) => s.matches('onAir'));
  return (
    <>
      <button type="button" className="live-button live-end" disabled={!onAir} onClick={() => setConfirming(true)}>End live</button>
      {confirming && onAir && (
        <div className="dialog-backdrop live-dialog-backdrop">
          <div className="dialog" role="alertdialog" aria-modal="true" aria-labelledby={titleId}>
            <h2 id={titleId} className="dialog-title">End this live?</h2>
            <div className="live-dialog-actions">
              <button type="button" className="button-link" autoFocus onClick={() => setConfirming(false)}>Keep going</button>
              <button type="button" className="button-link button-primary" onClick={() => { hosting.send({ type: 'live.end' }); setConfirming(false); }}>
                End now
              </button>
            </div>
          </div>
        </div>
      )}
    </>
  );
}
