/**
 * The room's audience (SPEC §3 joinNum, §4 member enter increments joinNum and the audience,
 * §9 audience query 500): the count, and a sheet listing who is in the room. The host gags
 * and ungags a member there (SPEC §4 gag, §6 live audience may be gagged).
 */
import { useSelector } from '@xstate/react';
import { useState } from 'react';
import type { LiveChatRef } from '../../../machines/live-chat/live-chat.selectors';
import { Sheet } from '../../ui/Sheet';
import TeamOutline from 'antd-mobile-icons/es/TeamOutline';

export function Audience({ chat, canGag }: { chat: LiveChatRef; canGag: boolean }) {
  const [open, setOpen] = useState(false);
  const joinNum = useSelector(chat, (s) => s.context.joinNum);
  const members = useSelector(chat, (s) => s.context.audience);
  const own = useSelector(chat, (s) => s.context.entry.account);
  const gagging = useSelector(chat, (s) => s.matches({ ready: { gagging: 'gagging' } }));
  const ready = useSelector(chat, (s) => s.matches('ready'));
  const notice = useSelector(chat, (s) => s.context.notice);
  const others = members.filter((m) => m.account !== own);
  return (
    <>
      <button type="button" className="live-chip" aria-label={`Audience, ${joinNum} joined`} aria-haspopup="dialog" onClick={() => setOpen(true)}>
        <TeamOutline aria-hidden /> <span data-testid="join-num">{joinNum}</span>
      </button>
      <Sheet title="Audience" open={open} onClose={() => setOpen(false)}>
        <p className="muted" data-testid="audience-count">{`${others.length} watching now · ${joinNum} joined`}</p>
        {canGag && notice && <p className="form-error" role="alert">{notice}</p>}
        {others.length === 0 ? <p className="muted">No one else is here yet.</p> : (
          <ul className="live-audience" aria-label="Members">
            {others.map((m) => (
              <li key={m.account} className="live-member" data-testid="audience-member" data-account={m.account} data-gagged={m.gagged ? 'true' : 'false'}>
                {m.avatar ? <img className="avatar" src={m.avatar} alt="" width={36} height={36} /> : <span className="avatar live-member-avatar" aria-hidden="true" />}
                <span className="live-member-nick">{m.nick}</span>
                {m.gagged && <span className="live-member-muted">Muted</span>}
                {canGag && (
                  <button
                    type="button"
                    className="live-button live-button-light"
                    aria-label={`${m.gagged ? 'Ungag' : 'Gag'} ${m.nick}`}
                    disabled={gagging || !ready}
                    onClick={() => chat.send({ type: 'chat.gag', account: m.account, gagged: !m.gagged })}
                  >
                    {m.gagged ? 'Ungag' : 'Gag'}
                  </button>
                )}
              </li>
            ))}
          </ul>
        )}
      </Sheet>
    </>
  );
}
