/**
 * /liveEnds (SPEC §2): how the live went — duration, viewers, gifts, income — and why it ended
 * when the host did not end it. The figures come from the hosting machine's output (the
 * summary the session keeps); without them (a reload, or the stats could not be had when the
 * live ended) they are asked of the server (queryLiveStat: the caller's latest room).
 */
import { liveEndsViewOf } from '../../../machines/live-hosting/live-hosting.selectors';
import type { LiveSummary } from '../../../machines/live-hosting/live-hosting.types';
import type { LiveStats } from '../../../machines/ports/live.port';
import { queryLiveStat } from '../../api/contract/live';
import { useServices } from '../../app/services';
import { useLookup } from '../live-room/useLookup';
import './live-ends.css';

export const TEXT_NO_FIGURES = 'The figures of this live could not be loaded.';

export function LiveEndsView({ summary, onHome }: { summary: LiveSummary | null; onHome: () => void }) {
  const { api } = useServices();
  const asked = useLookup<LiveStats>(summary?.stats ? null : 'latest', async () => {
    const { durationSec, viewers, gifts, income } = await api.data(queryLiveStat, {}, { silent: true });
    return { durationSec, viewers, gifts, income };
  });
  const stats = summary?.stats ?? asked.data;
  const view = liveEndsViewOf({ title: summary?.title ?? '', code: summary?.code ?? null, text: summary?.text ?? null, stats });
  const source = summary?.stats ? 'summary' : asked.data ? 'server' : asked.loading ? 'loading' : 'none';
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

function Figure({ label, value, testId }: { label: string; value: string; testId: string }) {
  return (
    <div className="live-ends-figure">
      <dt>{label}</dt>
      <dd data-testid={testId}>{value}</dd>
    </div>
  );
}
