import { Link } from '@tanstack/react-router';
import { useSelector } from '@xstate/react';
import { useState } from 'react';
import { selectFormError, selectSubmitting } from '../../../machines/app/app.selectors';
import { useAppActor } from '../../app/AppActorContext';
import { EntryForm, validateEntry } from '../../ui/EntryForm';
import { ScreenFrame } from '../../ui/ScreenFrame';
import { TextField } from '../../ui/TextField';

export default function RegisterScreen() {
  const app = useAppActor();
  const submitting = useSelector(app, selectSubmitting);
  const serverError = useSelector(app, selectFormError);
  const [account, setAccount] = useState('');
  const [password, setPassword] = useState('');
  const [nickname, setNickname] = useState('');
  const [localError, setLocalError] = useState<string | null>(null);

  const submit = () => {
    const problem = validateEntry({ account, password, nickname });
    setLocalError(problem);
    if (!problem) {
      app.send({
        type: 'register.submit',
        registration: { account: account.trim(), password, nickname: nickname.trim() },
      });
    }
  };

  return (
    <ScreenFrame title="Create an account" back>
      <EntryForm submitLabel="Register" submitting={submitting} error={localError ?? serverError} onSubmit={submit}>
        <TextField label="Account" name="account" autoComplete="username" inputMode="email" value={account} onChange={setAccount} maxLength={64} />
        <TextField label="Password" name="password" type="password" autoComplete="new-password" value={password} onChange={setPassword} maxLength={64} />
        <TextField label="Nickname" name="nickname" autoComplete="nickname" value={nickname} onChange={setNickname} maxLength={24} />
      </EntryForm>
      <div className="entry-links">
        <Link to="/login" className="button-link">I already have an account</Link>
      </div>
    </ScreenFrame>
  );
}
