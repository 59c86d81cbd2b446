/**
 * The host's income history (`/api/wallet/anchor/flowList`): every entry of the income ledger
 * with its kind, amount, time and the balance after it, newest first, paged by the shared
 * paging protocol (machines/paged-list), filtered by kind and by period. A new filter is a new
 * list (the old pages are not mixed in).
 */
import { useId, useState } from 'react';
import { createPagedListMachine } from '../../../../machines/paged-list/paged-list.machine';
import { INCOME_KINDS } from '../../../../machines/codes/withdraw.codes';
import type { IncomeKind } from '../../../../machines/codes/withdraw.codes';
import type { IncomeEntry } from '../../../../machines/ports/withdraw.port';
import { PagedListView } from '../../news/PagedListView';
import { whenText } from '../money';
import { INCOME_KIND_LABEL, diamondsText, useWithdrawPort } from './hostMoney';
import { useAppClock } from './clock';

const incomeMachine = createPagedListMachine<IncomeEntry>({ keyOf: (f) => f.id });

const DAY_MS = 24 * 60 * 60 * 1000;
export const PERIODS = [
  { key: 'all', label: 'All time' },
  { key: 'today', label: 'Today' },
  { key: 'week', label: 'Last 7 days' },
  { key: 'month', label: 'Last 30 days' },
] as const;
export type Period = (typeof PERIODS)[number]['key'];

/** The period's start in epoch milliseconds (local midnight today, or 7 or 30 days before it); none for all time. */
export function periodStart(period: Period, now: number): number | undefined {
  if (period === 'all') return undefined;
  const midnight = new Date(now);
  midnight.setHours(0, 0, 0, 0);
  const days = period === 'today' ? 0 : period === 'week' ? 6 : 29;
  return midnight.getTime() - days * DAY_MS;
}

const isIncomeKind = (v: string): v is IncomeKind => (INCOME_KINDS as readonly string[]).includes(v);
const isPeriod = (v: string): v is Period => PERIODS.some((p) => p.key === v);

export function IncomeHistory() {
  const port = useWithdrawPort();
  const clock = useAppClock();
  const ids = useId();
  const [kind, setKind] = useState<IncomeKind | 'all'>('all');
  const [period, setPeriod] = useState<Period>('all');
  // The app's clock, as the ledger's times and the withdrawal's days are read.
  const from = periodStart(period, clock.now());

  return (
    <div className="income-history">
      <div className="income-filters">
        <div className="field">
          <label htmlFor={`${ids}-kind`} className="field-label">Kind</label>
          <select id={`${ids}-kind`} className="field-input" value={kind} onChange={(e) => setKind(isIncomeKind(e.target.value) ? e.target.value : 'all')}>
            <option value="all">All kinds</option>
            {INCOME_KINDS.map((k) => <option key={k} value={k}>{INCOME_KIND_LABEL[k]}</option>)}
          </select>
        </div>
        <div className="field">
          <label htmlFor={`${ids}-period`} className="field-label">Period</label>
          <select id={`${ids}-period`} className="field-input" value={period} onChange={(e) => setPeriod(isPeriod(e.target.value) ? e.target.value : 'all')}>
            {PERIODS.map((p) => <option key={p.key} value={p.key}>{p.label}</option>)}
          </select>
        </div>
      </div>
      <PagedListView
        key={`${kind}-${period}`}
        label="Income history" empty="No income in this view yet." endText="No more entries" machine={incomeMachine}
        load={(page, pageSize) => port.incomeFlows({
          page, pageSize, ...(kind === 'all' ? {} : { kind }), ...(from === undefined ? {} : { from }),
        })}
        render={(f) => (
          <li key={f.id}>
            <article className="wallet-row" aria-label={INCOME_KIND_LABEL[f.kind]}>
              <p className="wallet-row-main">
                <span>{INCOME_KIND_LABEL[f.kind]}</span>
                <span className={f.amount >= 0 ? 'wallet-in' : 'wallet-out'}>
                  {f.amount >= 0 ? `+${diamondsText(f.amount)}` : `−${diamondsText(-f.amount)}`}
                </span>
              </p>
              <p className="wallet-row-sub muted">
                <span>{whenText(f.createdAt)}</span>
                <span>{`Balance ${diamondsText(f.balance)}`}</span>
              </p>
            </article>
          </li>
        )}
      />
    </div>
  );
}
