/**
 * /liveEnds (SPEC §2): how the live went — duration, viewers, gifts, income — and why it ended
 * when the host did not end it. The figures come from the hosting machine's output (the
 * summary the session keeps); without them (a reload, or the stats could not be had when the
 * live ended) they are asked of the server (queryLiveStat: the caller's latest room). A host
 * who has never been live has nothing to show: an empty state that offers to go live.
 */
import { liveEndsViewOf } from '../../../machines/live-hosting/live-hosting.selectors';
import type { LiveSummary } from '../../../machines/live-hosting/live-hosting.types';
import type { LiveStats } from '../../../machines/ports/live.port';
import { queryLiveStat } from '../../api/contract/live';
import { useServices } from '../../app/services';
import { LiveIcon } from '../../ui/LiveIcon';
import { useLookup } from '../live-room/useLookup';
import './live-ends.css';

export const TEXT_NO_FIGURES = 'The figures of this live could not be loaded.';
export const TEXT_NO_LIVE_TITLE = 'No live yet';
export const TEXT_NO_LIVE = 'When a live of yours ends, its duration, viewers, gifts and income show here.';

export interface LiveEndsViewProps {
  summary: LiveSummary | null;
  onHome: () => void;
  /** To /liveSetting, from the empty state. */
  onGoLive: () => void;
}

export function LiveEndsView({ summary, onHome, onGoLive }: LiveEndsViewProps) {
  const { api } = useServices();
  // The server's answer: the latest live's figures, or none when there has been no live.
  const asked = useLookup<{ stats: LiveStats | null }>(summary?.stats ? null : 'latest', async () => {
    const stat = await api.data(queryLiveStat, {}, { silent: true });
    return { stats: stat && { durationSec: stat.durationSec, viewers: stat.viewers, gifts: stat.gifts, income: stat.income } };
  });
  if (!summary && asked.data && !asked.data.stats) return <NoLive onHome={onHome} onGoLive={onGoLive} />;
  const stats = summary?.stats ?? asked.data?.stats ?? null;
  const view = liveEndsViewOf({ title: summary?.title ?? '', code: summary?.code ?? null, text: summary?.text ?? null, stats });
  const source = summary?.stats ? 'summary' : stats ? 'server' : asked.loading ? 'loading' : 'none';
  return (
    <div className="live-ends" data-testid="live-ends" data-source={source}>
      <h2 className="live-ends-title">{view?.title || 'Live ended'}</h2>
      {view?.reason && <p className="live-ends-reason" role="status">{view.reason}</p>}
      {source === 'loading' && <p className="muted" role="status">Loading the figures…</p>}
      {source === 'none' && (
        <p className="form-error" role="alert">
          {TEXT_NO_FIGURES} <button type="button" className="text-button" onClick={asked.reload}>Retry</button>
        </p>
      )}
      <dl className="live-ends-figures">
        <Figure label="Duration" value={stats ? view?.duration ?? '' : '—'} testId="live-ends-duration" />
        <Figure label="Viewers" value={stats ? String(stats.viewers) : '—'} testId="live-ends-viewers" />
        <Figure label="Gifts" value={stats ? String(stats.gifts) : '—'} testId="live-ends-gifts" />
        <Figure label="Income" value={stats ? String(stats.income) : '—'} testId="live-ends-income" />
      </dl>
      <button type="button" className="button-link button-primary button-block" onClick={onHome}>Back to home</button>
    </div>
  );
}

/** Nothing has ended yet (a host who has never been live): no figures, and a way to go live. */
function NoLive({ onHome, onGoLive }: { onHome: () => void; onGoLive: () => void }) {
  return (
    <div className="live-ends live-ends-empty" data-testid="live-ends" data-source="empty">
      <LiveIcon size={48} className="live-ends-empty-icon" />
      <h2 className="live-ends-title">{TEXT_NO_LIVE_TITLE}</h2>
      <p className="muted live-ends-empty-text">{TEXT_NO_LIVE}</p>
      <button type="button" className="button-link button-primary button-block" onClick={onGoLive}>Go live</button>
      <button type="button" className="button-link button-block" onClick={onHome}>Back to home</button>
    </div>
  );
}

function Figure({ label, value, testId }: { label: string; value: string; testId: string }) {
  return (
    <div className="live-ends-figure">
      <dt>{label}</dt>
      <dd data-testid={testId}>{value}</dd>
    </div>
  );
}
