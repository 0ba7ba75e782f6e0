/**
 * The form of a tab that acts on the selected groups: rename or describe (update), open, close,
 * message in the groups, private message to their participants. Only one combination of filled
 * fields does something (spec 5): anything else shows the spec's alert and sends nothing.
 */
import Send from '@mui/icons-material/Send';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import Typography from '@mui/material/Typography';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'react-toastify';
import type { TCampaign } from '@zapdesk/shared/campaigns';
import { GROUP_CONFIRM_WORDS, GROUP_LIMITS, groupActionFieldsMatch, type GroupActionFields, type GroupToolAction } from '@zapdesk/shared/groups';
import { MessageTextField } from '../../core/ui/MessageTextField';
import { toastError } from '../../core/ui/toastError';
import { MediaSourceField } from '../campaigns/MediaSourceField';
import { startGroupAction } from './groups.api';

export type ActionTab = 'update' | 'open' | 'close' | 'message' | 'participants';

type Props = { tab: ActionTab; whatsappId: number | undefined; groupIds: string[]; participantsUpTo: number; onStarted: (campaign: TCampaign) => void };

type Attachment = 'none' | 'mediaUrl' | 'mediaPath';

export function GroupActionForm({ tab, whatsappId, groupIds, participantsUpTo, onStarted }: Props) {
  const { t } = useTranslation();
  const [subject, setSubject] = useState('');
  const [description, setDescription] = useState('');
  const [confirm, setConfirm] = useState('');
  const [message, setMessage] = useState('');
  const [attachment, setAttachment] = useState<Attachment>('none');
  const [media, setMedia] = useState({ mediaUrl: '', mediaPath: '' });
  const [busy, setBusy] = useState(false);
  /** The spec's alert, kept in the form until the next try. */
  const [alert, setAlert] = useState<'fields' | 'select' | undefined>();

  const fields: GroupActionFields = {
    subject,
    description,
    confirm,
    message,
    ...(attachment === 'mediaUrl' ? { mediaUrl: media.mediaUrl } : {}),
    ...(attachment === 'mediaPath' ? { mediaPath: media.mediaPath } : {}),
  };
  // The update tab renames or describes, depending on which of its two fields is filled.
  const action: GroupToolAction = tab === 'update' ? (description.trim() && !subject.trim() ? 'description' : 'subject') : tab;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (whatsappId === undefined) return;
    if (!groupActionFieldsMatch(action, fields)) {
      setAlert('fields');
      toast.warning(t('groupTools.fieldsAlert'));
      return;
    }
    if (groupIds.length === 0) {
      setAlert('select');
      toast.warning(t('groupTools.selectGroups'));
      return;
    }
    setAlert(undefined);
    setBusy(true);
    try {
      const campaign = await startGroupAction({ whatsappId, action, groupIds, ...fields });
      onStarted(campaign);
      setConfirm('');
    } catch (caught) {
      toastError(caught);
    } finally {
      setBusy(false);
    }
  };

  const word = tab === 'open' ? GROUP_CONFIRM_WORDS.open : GROUP_CONFIRM_WORDS.close;
  return (
    <Stack component="form" gap={2} onSubmit={(event) => void submit(event)} noValidate data-testid={`group-form-${tab}`}>
      <Typography variant="body2" color="text.secondary">
        {t(`groupTools.help.${tab}`, { count: participantsUpTo })}
      </Typography>
      {tab === 'update' ? (
        <>
          <TextField
            label={t('groupTools.subject')}
            value={subject}
            onChange={(event) => setSubject(event.target.value)}
            helperText={t('groupTools.updateOneField')}
            slotProps={{ htmlInput: { maxLength: GROUP_LIMITS.subjectChars, 'data-testid': 'group-subject' } }}
          />
          <TextField
            label={t('groupTools.description')}
            value={description}
            onChange={(event) => setDescription(event.target.value)}
            multiline
            minRows={3}
            slotProps={{ htmlInput: { maxLength: GROUP_LIMITS.descriptionChars, 'data-testid': 'group-description' } }}
          />
        </>
      ) : null}
      {tab === 'open' || tab === 'close' ? (
        <TextField
          label={t('groupTools.confirmLabel', { word })}
          value={confirm}
          onChange={(event) => setConfirm(event.target.value)}
          placeholder={word}
          autoComplete="off"
          slotProps={{ htmlInput: { 'data-testid': 'group-confirm' } }}
        />
      ) : null}
      {tab === 'message' || tab === 'participants' ? (
        <>
          <MessageTextField
            label={attachment === 'none' ? t('campaigns.form.message') : t('campaigns.form.caption')}
            value={message}
            onChange={setMessage}
            error={undefined}
            helperText={tab === 'message' ? t('groupTools.messageHelp', { variable: '{{name}}' }) : t('campaigns.form.messageHelp', { variable: '{{name}}' })}
            testId="group-message"
          />
          <Stack gap={1}>
            <Typography variant="body2" color="text.secondary" id={`attach-${tab}`}>
              {t('groupTools.attach')}
            </Typography>
            <ToggleButtonGroup size="small" exclusive value={attachment} onChange={(_event, value: Attachment | null) => value && setAttachment(value)} aria-labelledby={`attach-${tab}`}>
              <ToggleButton value="none" data-testid="group-attach-none">
                {t('groupTools.attachNone')}
              </ToggleButton>
              <ToggleButton value="mediaUrl" data-testid="group-attach-url">
                {t('campaigns.kinds.mediaUrl')}
              </ToggleButton>
              <ToggleButton value="mediaPath" data-testid="group-attach-path">
                {t('campaigns.kinds.mediaPath')}
              </ToggleButton>
            </ToggleButtonGroup>
            {attachment === 'none' ? null : <MediaSourceField kind={attachment} {...media} onChange={(change) => setMedia((m) => ({ ...m, ...change }))} error={undefined} />}
          </Stack>
        </>
      ) : null}
      {alert ? (
        <Alert severity="warning" data-testid="group-fields-alert">
          {alert === 'fields' ? t('groupTools.fieldsAlert') : t('groupTools.selectGroups')}
        </Alert>
      ) : null}
      <Alert severity="info">{t('groupTools.paceNote')}</Alert>
      <Stack direction="row" justifyContent="flex-end">
        <Button type="submit" variant="contained" color={tab === 'close' ? 'warning' : 'primary'} startIcon={<Send />} disabled={busy || whatsappId === undefined} data-testid="group-submit">
          {groupIds.length === 0 ? t(`groupTools.tabs.${tab}`) : t(`groupTools.submit.${tab}`, { count: groupIds.length })}
        </Button>
      </Stack>
    </Stack>
  );
}
