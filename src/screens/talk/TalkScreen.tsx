import { useSearch } from '@tanstack/react-router';
import { useSelector } from '@xstate/react';
import { useEffect, useState } from 'react';
import type { FormEvent } from 'react';
import { selectImConnection, selectSession } from '../../../machines/session/session.selectors';
import { useAppActor } from '../../app/AppActorContext';
import { ScreenFrame } from '../../ui/ScreenFrame';

/** SPEC §9 chat limits: trimmed, empty ignored; a talk message is capped like in-call chat. */
const MAX_TEXT = 200;

interface Outgoing {
  idClient: string;
  text: string;
  status: 'sending' | 'sent' | 'failed' | 'refused';
  reason?: string;
}

/** Peer chat with `to` (the peer's IM account) and `taPath` from the query (SPEC §2). */
export default function TalkScreen() {
  const search = useSearch({ strict: false }) as { to?: string };
  const app = useAppActor();
  const session = useSelector(app, selectSession);
  const im = useSelector(session, selectImConnection);
  const [text, setText] = useState('');
  const [sent, setSent] = useState<Outgoing[]>([]);

  // Results of sends come back as events of the IM connection.
  useEffect(() => {
    if (!im) return;
    const update = (idClient: string, change: Partial<Outgoing>) =>
      setSent((list) => list.map((m) => (m.idClient === idClient ? { ...m, ...change } : m)));
    const ok = im.on('sendResult', (e) => update(e.idClient, { status: 'sent' }));
    const failed = im.on('sendFailed', (e) =>
      update(e.idClient, { status: e.reason === 'refused' ? 'refused' : 'failed', reason: e.text }));
    return () => { ok.unsubscribe(); failed.unsubscribe(); };
  }, [im]);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const body = text.trim();
    if (!body || !search.to || !im) return;
    const idClient = crypto.randomUUID();
    setSent((list) => [...list, { idClient, text: body, status: 'sending' }]);
    setText('');
    im.send({ type: 'im.sendText', to: search.to, text: body, idClient });
  };

  return (
    <ScreenFrame title={search.to ? `Chat with ${search.to}` : 'Chat'} back>
      <ol className="talk-list" aria-label="Messages">
        {sent.map((m) => (
          <li key={m.idClient} className="talk-bubble talk-out" data-status={m.status}>
            <span>{m.text}</span>
            {m.status !== 'sent' && <span className="muted talk-status">{m.status === 'sending' ? 'Sending…' : m.reason}</span>}
          </li>
        ))}
      </ol>
      <form className="talk-composer" onSubmit={submit}>
        <input
          className="field-input"
          aria-label="Message"
          placeholder="Type a message"
          value={text}
          maxLength={MAX_TEXT}
          onChange={(e) => setText(e.target.value)}
        />
        <button type="submit" className="button-link button-primary" disabled={!text.trim()}>Send</button>
      </form>
    </ScreenFrame>
  );
}
