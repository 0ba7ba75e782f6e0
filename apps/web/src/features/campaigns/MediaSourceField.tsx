/**
 * Where a bulk send's file comes from: a URL the server fetches, a file of the server's local
 * media folder, or (voice notes) a note recorded here, kept in that folder's recordings.
 */
import Autocomplete from '@mui/material/Autocomplete';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'react-toastify';
import type { SendKind } from '@zapdesk/shared/campaigns';
import { toastError } from '../../core/ui/toastError';
import { AudioRecorder } from '../chat/AudioRecorder';
import { campaignsKeys, fetchLocalMedia, uploadRecording } from './campaigns.api';

type Props = {
  kind: Exclude<SendKind, 'text'>;
  mediaUrl: string;
  mediaPath: string;
  onChange: (change: { mediaUrl?: string; mediaPath?: string }) => void;
  error: string | undefined;
};

const formatSize = (bytes: number) => (bytes >= 1024 * 1024 ? `${(bytes / 1024 / 1024).toFixed(1)} MB` : `${Math.max(1, Math.round(bytes / 1024))} KB`);

export function MediaSourceField({ kind, mediaUrl, mediaPath, onChange, error }: Props) {
  const { t } = useTranslation();
  const usesFolder = kind === 'mediaPath' || kind === 'voice';
  const files = useQuery({ queryKey: campaignsKeys.localMedia, queryFn: fetchLocalMedia, enabled: usesFolder });
  const [recording, setRecording] = useState(false);
  const options = (files.data?.files ?? []).filter((file) => kind !== 'voice' || file.path.toLowerCase().endsWith('.ogg'));

  const urlField = (
    <TextField
      label={kind === 'voice' ? t('campaigns.form.voiceUrl') : t('campaigns.form.mediaUrl')}
      value={mediaUrl}
      onChange={(event) => onChange({ mediaUrl: event.target.value, ...(kind === 'voice' ? { mediaPath: '' } : {}) })}
      fullWidth
      placeholder="https://"
      error={Boolean(error) && kind === 'mediaUrl'}
      helperText={kind === 'mediaUrl' ? (error ?? t('campaigns.form.mediaUrlHelp')) : undefined}
      slotProps={{ htmlInput: { 'data-testid': 'campaign-media-url' } }}
    />
  );
  if (kind === 'mediaUrl') return urlField;

  const pathField = (
    <Autocomplete<string, false, false, true>
      freeSolo
      options={options.map((file) => file.path)}
      value={mediaPath}
      onInputChange={(_event, value) => onChange({ mediaPath: value, ...(kind === 'voice' ? { mediaUrl: '' } : {}) })}
      loading={files.isFetching}
      renderOption={(props, option) => {
        const file = options.find((candidate) => candidate.path === option);
        return (
          <li {...props} key={option}>
            <Typography variant="body2" sx={{ flex: 1, wordBreak: 'break-all' }}>
              {option}
            </Typography>
            <Typography variant="caption" color="text.secondary" sx={{ ml: 1 }}>
              {file ? formatSize(file.size) : ''}
            </Typography>
          </li>
        );
      }}
      renderInput={(params) => (
        <TextField
          {...params}
          label={kind === 'voice' ? t('campaigns.form.voicePath') : t('campaigns.form.mediaPath')}
          error={Boolean(error)}
          helperText={error ?? (options.length === 0 && !files.isFetching ? t('campaigns.form.folderEmpty') : t('campaigns.form.mediaPathHelp'))}
          slotProps={{ htmlInput: { ...params.inputProps, 'data-testid': 'campaign-media-path' } }}
        />
      )}
    />
  );
  if (kind === 'mediaPath') return pathField;

  return (
    <Stack gap={1.5}>
      {pathField}
      <Stack direction="row" alignItems="center" gap={1} data-testid="campaign-recorder">
        <AudioRecorder
          disabled={false}
          onStateChange={(state) => setRecording(state !== 'idle')}
          onSend={async (file) => {
            try {
              const saved = await uploadRecording(file);
              onChange({ mediaPath: saved, mediaUrl: '' });
              toast.success(t('campaigns.form.recorded'));
            } catch (caught) {
              toastError(caught);
            }
          }}
        />
        {recording ? null : (
          <Typography variant="body2" color="text.secondary">
            {t('campaigns.form.recordHelp')}
          </Typography>
        )}
      </Stack>
      {urlField}
    </Stack>
  );
}
