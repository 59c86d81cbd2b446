/**
 * /wallet/collectionInfo and /wallet/addCollectionMethod (SPEC §2): where a host's withdrawals
 * are paid. The list shows each method masked (the number is never shown whole); adding one
 * asks for what its kind needs (a bank account, an e-wallet, a USDT address), checked field by
 * field before it is sent and by the server after (machines/collection-methods).
 */
import { Link, useNavigate, useRouter, useSearch } from '@tanstack/react-router';
import { useSelector } from '@xstate/react';
import { useScreenActor } from '../../../ui/useScreenActor';
import { useEffect, useId, useState } from 'react';
import type { FormEvent } from 'react';
import { MAX_ACCOUNTS, WITHDRAW_CHAINS } from '../../../../machines/codes/withdraw.codes';
import type { AccountField } from '../../../../machines/codes/withdraw.codes';
import { composeCollectionMethods } from '../../../../machines/collection-methods/collection-methods.actors';
import type { ActorRefFrom } from 'xstate';
import { ListMessage } from '../../../ui/ListMessage';
import { ScreenFrame } from '../../../ui/ScreenFrame';
import { HostsOnly } from './HostsOnly';
import { ACCOUNT_KIND_LABEL, methodLabel, useWithdrawPort } from './hostMoney';
import { whenText } from '../money';
// The rows' look (.wallet-row) lives with the wallet's; this view may be opened without it.
import '../wallet.css';
import './host-wallet.css';

type CollectionMethodsRef = ActorRefFrom<ReturnType<typeof composeCollectionMethods>>;

function useMethods(adding: boolean) {
  const port = useWithdrawPort();
  const [logic] = useState(() => composeCollectionMethods({ withdraw: port }));
  return useScreenActor(logic, { input: { adding } });
}

export function CollectionInfoScreen() {
  return (
    <ScreenFrame title="Collection methods" back className="wallet-screen">
      <HostsOnly><MethodList /></HostsOnly>
    </ScreenFrame>
  );
}

export function AddCollectionMethodScreen() {
  return (
    <ScreenFrame title="Add a collection method" back className="wallet-screen">
      <HostsOnly><AddMethod /></HostsOnly>
    </ScreenFrame>
  );
}

function MethodList() {
  const methods = useMethods(false);
  const phase = useSelector(methods, (s) => (s.matches('loading') ? 'loading' : s.matches('failed') ? 'failed' : 'ready'));
  const accounts = useSelector(methods, (s) => s.context.accounts);
  const error = useSelector(methods, (s) => s.context.error);
  if (phase === 'loading') return <ListMessage busy>Loading your collection methods…</ListMessage>;
  if (phase === 'failed') return <ListMessage error={error} onRetry={() => methods.send({ type: 'methods.retry' })} />;
  return (
    <>
      {accounts.length === 0 ? (
        <ListMessage>No collection method yet. Add one to withdraw your income.</ListMessage>
      ) : (
        <ul className="host-method-list" aria-label="Collection methods">
          {accounts.map((a) => (
            <li key={a.id} className="wallet-row">
              <p className="wallet-row-main"><span>{ACCOUNT_KIND_LABEL[a.kind]}</span><span>{methodLabel(a)}</span></p>
              <p className="wallet-row-sub muted"><span>{a.holderName}</span><span>{`Added ${whenText(a.createdAt)}`}</span></p>
            </li>
          ))}
        </ul>
      )}
      {accounts.length < MAX_ACCOUNTS
        ? <Link to="/wallet/addCollectionMethod" search={{ from: 'collectionInfo' }} className="button-link button-primary button-block">Add a collection method</Link>
        : <p className="muted">{`You keep the most collection methods there can be (${MAX_ACCOUNTS}).`}</p>}
    </>
  );
}

// Named apart from the kinds' radios ('E-wallet', 'USDT address'): two controls of one form with one name cannot be told apart by ear.
const FIELD_LABEL: Readonly<Record<'bank' | 'ewallet' | 'usdt', Partial<Record<AccountField, string>>>> = {
  bank: { holderName: 'Account holder', institution: 'Bank name', accountNumber: 'Account number or IBAN' },
  ewallet: { holderName: 'Account holder', institution: 'Wallet provider', accountNumber: 'Email or phone number' },
  usdt: { chain: 'Chain', accountNumber: 'Wallet address' },
};

function AddMethod() {
  const methods = useMethods(true);
  const search = useSearch({ strict: false }) as { from?: unknown };
  const navigate = useNavigate();
  const phase = useSelector(methods, (s) => (typeof s.value === 'string' ? s.value : Object.keys(s.value)[0]!));
  const added = useSelector(methods, (s) => s.context.added);
  const error = useSelector(methods, (s) => s.context.error);

  // Saved: back where the person came from, the new method chosen for a withdrawal.
  useEffect(() => {
    if (phase !== 'saved' || !added) return;
    if (search.from === 'withdrawal') void navigate({ to: '/wallet/withdrawal', search: { accountId: added.id }, replace: true });
    else void navigate({ to: '/wallet/collectionInfo', replace: true });
  }, [phase, added, search.from, navigate]);

  if (phase === 'loading') return <ListMessage busy>Loading…</ListMessage>;
  if (phase === 'failed') return <ListMessage error={error} onRetry={() => methods.send({ type: 'methods.retry' })} />;
  if (phase === 'list' || phase === 'saved') {
    // Adding was refused before the form (at most MAX_ACCOUNTS), or it is saved and leaving.
    return error ? <p role="alert" className="form-error">{error}</p> : <ListMessage busy>Saved.</ListMessage>;
  }
  return <MethodForm methods={methods} />;
}

function MethodForm({ methods }: { methods: CollectionMethodsRef }) {
  const ids = useId();
  const draft = useSelector(methods, (s) => s.context.draft);
  const kinds = useSelector(methods, (s) => s.context.kinds);
  const providers = useSelector(methods, (s) => s.context.providers);
  const problems = useSelector(methods, (s) => s.context.problems);
  const error = useSelector(methods, (s) => s.context.error);
  const saving = useSelector(methods, (s) => s.matches('saving'));
  const router = useRouter();
  const labels = FIELD_LABEL[draft.kind];
  const set = (field: AccountField) => (value: string) => methods.send({ type: 'methods.field', field, value });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    methods.send({ type: 'methods.save' });
  };
  const fieldProps = (field: AccountField) => ({
    id: `${ids}-${field}`,
    className: 'field-input',
    'aria-invalid': problems?.[field] ? true : undefined,
    'aria-describedby': problems?.[field] ? `${ids}-${field}-why` : undefined,
    disabled: saving,
  });
  const why = (field: AccountField) => problems?.[field] && <p id={`${ids}-${field}-why`} className="form-error field-why">{problems[field]}</p>;

  return (
    <form className="host-panel" onSubmit={submit} noValidate aria-busy={saving} aria-label="Add a collection method">
      <fieldset className="host-kinds">
        <legend className="field-label">Kind</legend>
        {kinds.map((k) => (
          <label key={k} className="host-method">
            <input type="radio" name={`${ids}-kind`} checked={draft.kind === k} disabled={saving} onChange={() => methods.send({ type: 'methods.kind', kind: k })} />
            <span>{ACCOUNT_KIND_LABEL[k]}</span>
          </label>
        ))}
      </fieldset>
      {labels.holderName && (
        <div className="field">
          <label htmlFor={`${ids}-holderName`} className="field-label">{labels.holderName}</label>
          <input {...fieldProps('holderName')} autoComplete="name" value={draft.holderName} onChange={(e) => set('holderName')(e.target.value)} />
          {why('holderName')}
        </div>
      )}
      {draft.kind === 'bank' && (
        <div className="field">
          <label htmlFor={`${ids}-institution`} className="field-label">{labels.institution}</label>
          <input {...fieldProps('institution')} autoComplete="off" value={draft.institution} onChange={(e) => set('institution')(e.target.value)} />
          {why('institution')}
        </div>
      )}
      {draft.kind === 'ewallet' && (
        <div className="field">
          <label htmlFor={`${ids}-institution`} className="field-label">{labels.institution}</label>
          <select {...fieldProps('institution')} value={draft.institution} onChange={(e) => set('institution')(e.target.value)}>
            <option value="">Choose the e-wallet</option>
            {providers.map((p) => <option key={p} value={p}>{p}</option>)}
          </select>
          {why('institution')}
        </div>
      )}
      {draft.kind === 'usdt' && (
        <div className="field">
          <label htmlFor={`${ids}-chain`} className="field-label">{labels.chain}</label>
          <select {...fieldProps('chain')} value={draft.chain} onChange={(e) => set('chain')(e.target.value)}>
            <option value="">Choose the chain</option>
            {WITHDRAW_CHAINS.map((c) => <option key={c} value={c}>{c}</option>)}
          </select>
          {why('chain')}
        </div>
      )}
      <div className="field">
        <label htmlFor={`${ids}-accountNumber`} className="field-label">{labels.accountNumber}</label>
        <input
          {...fieldProps('accountNumber')} autoComplete="off" spellCheck={false}
          inputMode={draft.kind === 'ewallet' ? 'email' : 'text'} value={draft.accountNumber}
          onChange={(e) => set('accountNumber')(e.target.value)}
        />
        {why('accountNumber')}
      </div>
      {error && <p role="alert" className="form-error">{error}</p>}
      <button type="submit" className="button-link button-primary button-block" disabled={saving}>{saving ? 'Saving…' : 'Save'}</button>
      <button type="button" className="button-link button-block" disabled={saving} onClick={() => router.history.back()}>Cancel</button>
    </form>
  );
}
