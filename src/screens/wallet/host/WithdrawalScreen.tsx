/**
 * /wallet/withdrawal (SPEC §2; §6 host: withdrawal): the rules first (minimum, maximum, fee,
 * rate, the days a withdrawal may be applied for), then the amount and where it goes, then the
 * password, bound to the withdrawal actor. The quote (fee and what arrives) is shown before the
 * password is asked. An apply sent once per intent: a double tap is one apply, a retry after no
 * answer sends the same one (machines/withdrawal).
 */
import { Link, useNavigate, useSearch } from '@tanstack/react-router';
import { useSelector } from '@xstate/react';
import { useScreenActor } from '../../../ui/useScreenActor';
import { useId, useState } from 'react';
import type { FormEvent } from 'react';
import { WEEKDAY_NAMES, quoteOf } from '../../../../machines/codes/withdraw.codes';
import { composeWithdrawal } from '../../../../machines/withdrawal/withdrawal.actors';
import { ListMessage } from '../../../ui/ListMessage';
import { ScreenFrame } from '../../../ui/ScreenFrame';
import { HostsOnly } from './HostsOnly';
import { PinField, WithdrawPasswordForm } from './WithdrawPasswordForm';
import { ACCOUNT_KIND_LABEL, WITHDRAW_STATUS_LABEL, diamondsText, methodLabel, useWithdrawPort } from './hostMoney';
import { useAppClock } from './clock';
import './host-wallet.css';

export default function WithdrawalScreen() {
  return (
    <ScreenFrame title="Withdraw" back className="wallet-screen">
      <HostsOnly><Withdrawal /></HostsOnly>
    </ScreenFrame>
  );
}

function Withdrawal() {
  const port = useWithdrawPort();
  const clock = useAppClock();
  const search = useSearch({ strict: false }) as { accountId?: unknown };
  const preselect = typeof search.accountId === 'number' ? search.accountId : Number(search.accountId);
  const [logic] = useState(() => composeWithdrawal({ withdraw: port, clock }));
  const flow = useScreenActor(logic, { input: Number.isSafeInteger(preselect) && preselect > 0 ? { accountId: preselect } : {} });
  const value = useSelector(flow, (s) => (typeof s.value === 'string' ? s.value : Object.keys(s.value)[0]!));
  const ctx = useSelector(flow, (s) => s.context);
  const navigate = useNavigate();
  const ids = useId();
  const [password, setPassword] = useState('');

  if (value === 'loading') return <ListMessage busy>Loading the withdrawal rules…</ListMessage>;
  if (value === 'failed') return <ListMessage error={ctx.error} onRetry={() => flow.send({ type: 'withdrawal.retry' })} />;
  const { config, balance } = ctx;
  if (!config || !balance) return null;

  const rules = (
    <section className="host-panel" aria-label="Withdrawal rules">
      <dl className="host-figures">
        <div><dt>You can withdraw</dt><dd data-testid="withdrawable">{diamondsText(balance.withdrawable)}</dd></div>
        <div><dt>Minimum</dt><dd>{diamondsText(config.minimum)}</dd></div>
        <div><dt>Maximum at once</dt><dd>{diamondsText(config.maximum)}</dd></div>
        <div><dt>Fee</dt><dd>{`${config.feePercent}%`}</dd></div>
        <div><dt>Rate</dt><dd>{`${diamondsText(config.rate)} diamonds = US$ 1`}</dd></div>
        <div className="host-figure-wide"><dt>Days (UTC)</dt><dd>{config.allowedDays.length ? config.allowedDays.map((d) => WEEKDAY_NAMES[d - 1]).join(', ') : 'None'}</dd></div>
      </dl>
    </section>
  );

  if (value === 'noPassword') {
    return (
      <>
        {rules}
        <h2 className="host-heading">Set a withdrawal password first</h2>
        <WithdrawPasswordForm hasPassword={false} onDone={() => flow.send({ type: 'withdrawal.reload' })} />
      </>
    );
  }
  if (value === 'noAccount') {
    return (
      <>
        {rules}
        <p className="host-panel">Add where the money goes first.</p>
        <Link to="/wallet/addCollectionMethod" search={{ from: 'withdrawal' }} className="button-link button-primary button-block">Add a collection method</Link>
      </>
    );
  }
  if (value === 'closed') {
    return (
      <>
        {rules}
        <p role="alert" className="form-error">{ctx.problem}</p>
      </>
    );
  }
  if (value === 'applied' && ctx.record) {
    const r = ctx.record;
    return (
      <div className="host-panel" role="status" aria-label="Withdrawal applied">
        <h2 className="host-heading">Withdrawal applied</h2>
        <p>{`${diamondsText(r.amount)} diamonds left your income. US$ ${r.usd} will be paid to ${r.accountLabel}.`}</p>
        <p className="muted">{`Status: ${WITHDRAW_STATUS_LABEL[r.status]}. You will get a message when it is paid.`}</p>
        <Link to="/wallet/withdrawalRecord" className="button-link button-block">Withdrawal records</Link>
        <button type="button" className="button-link button-block" onClick={() => void navigate({ to: '/wallet' })}>Back to wallet</button>
      </div>
    );
  }
  if (value === 'refused' || value === 'locked') {
    return (
      <div className="host-panel">
        <p role="alert" className="form-error">{ctx.error}</p>
        <button type="button" className="button-link button-block" onClick={() => flow.send({ type: 'withdrawal.back' })}>OK</button>
      </div>
    );
  }

  const amount = Number(ctx.amountText);
  const quote = Number.isSafeInteger(amount) && amount > 0 ? quoteOf(config, amount) : null;
  const asking = value === 'confirming' || value === 'applying';
  const applying = value === 'applying';
  const chosen = ctx.accounts.find((a) => a.id === ctx.accountId);

  const next = (e: FormEvent) => {
    e.preventDefault();
    flow.send({ type: 'withdrawal.next' });
  };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    flow.send({ type: 'withdrawal.submit', password });
    setPassword('');
  };

  if (asking && quote && chosen) {
    return (
      <form className="host-panel" onSubmit={submit} noValidate aria-busy={applying} aria-label="Confirm the withdrawal">
        <dl className="host-figures">
          <div><dt>Amount</dt><dd>{`${diamondsText(amount)} diamonds`}</dd></div>
          <div><dt>Fee</dt><dd>{`${diamondsText(quote.fee)} diamonds`}</dd></div>
          <div><dt>You receive</dt><dd data-testid="withdraw-usd">{`US$ ${quote.usd}`}</dd></div>
          <div className="host-figure-wide"><dt>To</dt><dd>{`${ACCOUNT_KIND_LABEL[chosen.kind]}, ${methodLabel(chosen)}`}</dd></div>
        </dl>
        <PinField label="Withdrawal password" value={password} onChange={setPassword} autoFocus invalid={ctx.passwordError !== null} describedBy={ctx.passwordError ? `${ids}-pw` : undefined} />
        {ctx.passwordError && <p id={`${ids}-pw`} role="alert" className="form-error">{ctx.passwordError}</p>}
        <button type="submit" className="button-link button-primary button-block" disabled={applying}>
          {applying ? 'Applying…' : 'Apply for withdrawal'}
        </button>
        <button type="button" className="button-link button-block" disabled={applying} onClick={() => flow.send({ type: 'withdrawal.back' })}>Back</button>
      </form>
    );
  }

  return (
    <>
      {rules}
      <form className="host-panel" onSubmit={next} noValidate aria-label="Withdrawal">
        <div className="field">
          <label htmlFor={`${ids}-amount`} className="field-label">Amount in diamonds</label>
          <div className="host-amount">
            <input
              id={`${ids}-amount`} className="field-input" inputMode="numeric" autoComplete="off" value={ctx.amountText}
              aria-invalid={ctx.problem !== null || undefined} aria-describedby={`${ids}-quote${ctx.problem ? ` ${ids}-why` : ''}`}
              onChange={(e) => flow.send({ type: 'withdrawal.amount', text: e.target.value.replace(/[^\d]/g, '').slice(0, 10) })}
            />
            <button type="button" className="button-link" onClick={() => flow.send({ type: 'withdrawal.all' })}>All</button>
          </div>
          <p id={`${ids}-quote`} className="muted host-quote">
            {quote ? `Fee ${diamondsText(quote.fee)} diamonds · you receive US$ ${quote.usd}` : `Between ${diamondsText(config.minimum)} and ${diamondsText(config.maximum)} diamonds.`}
          </p>
        </div>
        <fieldset className="host-methods">
          <legend className="field-label">Where the money goes</legend>
          {ctx.accounts.map((a) => (
            <label key={a.id} className="host-method">
              <input type="radio" name={`${ids}-account`} checked={ctx.accountId === a.id} onChange={() => flow.send({ type: 'withdrawal.account', id: a.id })} />
              <span>
                <span className="host-method-kind">{ACCOUNT_KIND_LABEL[a.kind]}</span>
                <span>{methodLabel(a)}</span>
              </span>
            </label>
          ))}
          <Link to="/wallet/addCollectionMethod" search={{ from: 'withdrawal' }} className="text-button host-add">Add a collection method</Link>
        </fieldset>
        {ctx.problem && <p id={`${ids}-why`} role="alert" className="form-error">{ctx.problem}</p>}
        <button type="submit" className="button-link button-primary button-block">Next</button>
      </form>
    </>
  );
}
