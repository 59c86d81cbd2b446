import { Link } from '@tanstack/react-router';
import { useSelector } from '@xstate/react';
import { useState } from 'react';
import { selectFormError, selectSubmitting } from '../../../machines/app/app.selectors';
import { useAppActor } from '../../app/AppActorContext';
import { EntryForm, validateEntry } from '../../ui/EntryForm';
import { ScreenFrame } from '../../ui/ScreenFrame';
import { TextField } from '../../ui/TextField';
import { VisitorButton } from './VisitorButton';

export default function LoginScreen() {
  const app = useAppActor();
  const submitting = useSelector(app, selectSubmitting);
  const serverError = useSelector(app, selectFormError);
  const [account, setAccount] = useState('');
  const [password, setPassword] = useState('');
  const [localError, setLocalError] = useState<string | null>(null);

  const submit = () => {
    const problem = validateEntry({ account, password });
    setLocalError(problem);
    if (!problem) app.send({ type: 'login.submit', credentials: { account: account.trim(), password } });
  };

  return (
    <ScreenFrame title="Log in">
      <EntryForm submitLabel="Log in" submitting={submitting} error={localError ?? serverError} onSubmit={submit}>
        <TextField label="Account" name="account" autoComplete="username" inputMode="email" value={account} onChange={setAccount} maxLength={64} />
        <TextField label="Password" name="password" type="password" autoComplete="current-password" value={password} onChange={setPassword} maxLength={64} />
      </EntryForm>
      <div className="entry-links">
        <Link to="/register" className="button-link">Create an account</Link>
        <VisitorButton />
      </div>
    </ScreenFrame>
  );
}
