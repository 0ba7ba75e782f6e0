/**
 * Where a bulk send's file comes from: a URL the server fetches, a file of the media library
 * (the server's local media folder, filled from the page), or (voice notes) a note recorded here,
 * kept in that folder's recordings and played back before it is sent.
 */
import Autocomplete from '@mui/material/Autocomplete';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'react-toastify';
import type { SendKind } from '@zapdesk/shared/campaigns';
import type { TLocalMediaList } from '@zapdesk/shared/media-library';
import { formatFileSize } from '../../core/ui/formatFileSize';
import { toastError } from '../../core/ui/toastError';
import { AudioRecorder } from '../chat/AudioRecorder';
import { campaignsKeys, fetchLocalMedia, uploadRecording } from './campaigns.api';
import { MediaLibrary } from './MediaLibrary';
import { MediaPreview } from './MediaPreview';

type Props = {
  kind: Exclude<SendKind, 'text'>;
  mediaUrl: string;
  mediaPath: string;
  onChange: (change: { mediaUrl?: string; mediaPath?: string }) => void;
  error: string | undefined;
};

export function MediaSourceField({ kind, mediaUrl, mediaPath, onChange, error }: Props) {
  const { t, i18n } = useTranslation();
  const queryClient = useQueryClient();
  const files = useQuery({ queryKey: campaignsKeys.localMedia, queryFn: fetchLocalMedia, enabled: kind === 'voice' });
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

  if (kind === 'mediaPath') return <MediaLibrary selected={mediaPath} onSelect={(path) => onChange({ mediaPath: path })} error={error} />;

  const chosen = options.find((file) => file.path === mediaPath);
  const pathField = (
    <Autocomplete<string, false, false, false>
      options={options.map((file) => file.path)}
      value={mediaPath === '' ? null : mediaPath}
      onChange={(_event, value) => onChange({ mediaPath: value ?? '', mediaUrl: '' })}
      loading={files.isFetching}
      renderOption={(props, option) => {
        const file = options.find((candidate) => candidate.path === option);
        return (
          <li {...props} key={option}>
            <Typography variant="body2" sx={{ flex: 1, wordBreak: 'break-all' }}>
              {option}
            </Typography>
            <Typography variant="caption" color="text.secondary" sx={{ ml: 1 }}>
              {file ? formatFileSize(file.size, i18n.language) : ''}
            </Typography>
          </li>
        );
      }}
      renderInput={(params) => (
        <TextField
          {...params}
          label={t('campaigns.form.voicePath')}
          error={Boolean(error)}
          helperText={error ?? (mediaPath ? undefined : options.length === 0 && !files.isFetching ? t('toolPages.voice.none') : t('toolPages.voice.pickHelp'))}
          slotProps={{ htmlInput: { ...params.inputProps, 'data-testid': 'campaign-media-path' } }}
        />
      )}
    />
  );
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
              // Offered in the list at once, chosen, and ready to be heard.
              queryClient.setQueryData<TLocalMediaList>(campaignsKeys.localMedia, (old) =>
                old ? { ...old, files: [...old.files, { path: saved, size: file.size, mediaType: 'audio', modifiedAt: new Date().toISOString() }] } : old,
              );
              void queryClient.invalidateQueries({ queryKey: campaignsKeys.localMedia });
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
      {mediaPath ? (
        <Stack gap={0.5} data-testid="campaign-voice-listen">
          <Typography variant="body2" fontWeight={600}>
            {t('toolPages.voice.listen')}
          </Typography>
          <MediaPreview
            key={mediaPath}
            source={{ libraryPath: mediaPath }}
            kind="audio"
            name={chosen ? `${mediaPath} · ${formatFileSize(chosen.size, i18n.language)}` : mediaPath}
            testId="campaign-voice-preview"
          />
        </Stack>
      ) : null}
      {urlField}
    </Stack>
  );
}
