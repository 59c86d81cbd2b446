/**
 * The common problems of /customer-talk (SPEC §7 /api/chat/common/problem/getCustomerReplyInfo):
 * each problem a button; a tap shows customer service's reply under it, as a chat bubble.
 * All problems come in one answer, so the list is a paged list of a single page.
 */
import { useSelector } from '@xstate/react';
import { useScreenActor } from '../../ui/useScreenActor';
import { useId, useState } from 'react';
import { fromPromise } from 'xstate';
import { createPagedListMachine } from '../../../machines/paged-list/paged-list.machine';
import type { Page, PageRequest } from '../../../machines/paged-list/paged-list.machine';
import { selectError, selectItems, selectPhase } from '../../../machines/paged-list/paged-list.selectors';
import * as chat from '../../api/contract/chat';
import type { ProblemReply } from '../../api/contract/chat';
import { useServices } from '../../compose/services';
import { ListMessage } from '../../ui/ListMessage';

const problemsMachine = createPagedListMachine<ProblemReply>({ keyOf: (p) => p.id });
/** Larger than any answer: the first page is the last. */
const ONE_PAGE = 1000;

export function CommonProblems() {
  const { api } = useServices();
  const headingId = useId();
  // Composed once per mount, not on every render.
  const [logic] = useState(() => problemsMachine.provide({
    actors: {
      loadPage: fromPromise<Page<ProblemReply>, PageRequest>(async () => ({
        items: (await api.data(chat.getCustomerReplyInfo, {}, { silent: true })).problemReply,
      })),
    },
  }));
  const list = useScreenActor(logic, { input: { pageSize: ONE_PAGE } });
  const phase = useSelector(list, selectPhase);
  const problems = useSelector(list, selectItems);
  const error = useSelector(list, selectError);
  const [open, setOpen] = useState<ReadonlySet<number>>(() => new Set());
  const toggle = (id: number) => setOpen((was) => {
    const next = new Set(was);
    if (!next.delete(id)) next.add(id);
    return next;
  });

  return (
    <section className="cs-section" aria-labelledby={headingId}>
      <h2 id={headingId} className="cs-heading">Common problems</h2>
      {phase === 'loading' && <ListMessage busy>Loading…</ListMessage>}
      {phase === 'failed' && <ListMessage error={error} onRetry={() => list.send({ type: 'list.retry' })} />}
      {phase === 'empty' && <ListMessage>No common problems right now.</ListMessage>}
      {phase === 'listed' && (
        <ul className="cs-problems">
          {problems.map((p) => <Problem key={p.id} problem={p} open={open.has(p.id)} onToggle={() => toggle(p.id)} />)}
        </ul>
      )}
    </section>
  );
}

function Problem({ problem, open, onToggle }: { problem: ProblemReply; open: boolean; onToggle: () => void }) {
  const id = useId();
  return (
    <li className="cs-problem">
      <h3 className="cs-problem-heading">
        <button
          type="button"
          id={`${id}-q`}
          className="cs-problem-toggle"
          aria-expanded={open}
          aria-controls={`${id}-a`}
          onClick={onToggle}
        >
          <span>{problem.problem}</span>
          <svg className="cs-chevron" viewBox="0 0 24 24" width="20" height="20" aria-hidden="true">
            <path d="M6 9l6 6 6-6" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
          </svg>
        </button>
      </h3>
      <div id={`${id}-a`} role="region" aria-labelledby={`${id}-q`} className="cs-reply" hidden={!open}>
        <p className="cs-bubble">{problem.reply}</p>
      </div>
    </li>
  );
}
