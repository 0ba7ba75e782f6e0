/**
 * Create group: a title and the members (numbers one per line, contacts picked or a list
 * imported), then the result: the new group and each number that could not be added, with why.
 */
import GroupAdd from '@mui/icons-material/GroupAdd';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { GROUP_LIMITS, type TGroupCreated } from '@zapdesk/shared/groups';
import { toastError } from '../../core/ui/toastError';
import { codeText } from '../campaigns/CampaignProgress';
import { NumbersField } from '../campaigns/NumbersField';
import { createGroup } from './groups.api';
import { toast } from 'react-toastify';

type Props = { whatsappId: number | undefined; onCreated: (name: string) => void };

export function CreateGroupForm({ whatsappId, onCreated }: Props) {
  const { t } = useTranslation();
  const [title, setTitle] = useState('');
  const [participants, setParticipants] = useState('');
  const [result, setResult] = useState<TGroupCreated | undefined>();
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (whatsappId === undefined) return;
    // Spec 5: the title and the members, or nothing happens.
    if (title.trim() === '' || participants.trim() === '') {
      toast.warning(t('groupTools.fieldsAlert'));
      return;
    }
    setBusy(true);
    try {
      const created = await createGroup({ whatsappId, title: title.trim(), participants });
      setResult(created);
      setTitle('');
      setParticipants('');
      onCreated(created.group.subject);
    } catch (caught) {
      toastError(caught);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Stack component="form" gap={2} onSubmit={(event) => void submit(event)} noValidate data-testid="group-form-create">
      <TextField
        label={t('groupTools.title')}
        value={title}
        onChange={(event) => setTitle(event.target.value)}
        slotProps={{ htmlInput: { maxLength: GROUP_LIMITS.subjectChars, 'data-testid': 'group-title' } }}
      />
      <NumbersField value={participants} onChange={setParticipants} error={undefined} />
      <Stack direction="row" justifyContent="flex-end">
        <Button type="submit" variant="contained" startIcon={<GroupAdd />} disabled={busy || whatsappId === undefined} data-testid="group-create-submit">
          {t('groupTools.create')}
        </Button>
      </Stack>
      {result ? (
        <Stack gap={1} data-testid="group-create-result">
          <Alert severity="success">{t('groupTools.created', { name: result.group.subject, count: result.added.length })}</Alert>
          {result.failed.length > 0 ? (
            <Alert severity="warning" data-testid="group-create-failed">
              {t('groupTools.notAdded', { count: result.failed.length })}
              <List dense disablePadding>
                {result.failed.map((f) => (
                  <ListItem key={`${f.input}-${f.error}`} disableGutters data-testid="group-create-failed-row">
                    <ListItemText primary={f.input} secondary={codeText(f.error)} />
                  </ListItem>
                ))}
              </List>
            </Alert>
          ) : null}
        </Stack>
      ) : null}
    </Stack>
  );
}
