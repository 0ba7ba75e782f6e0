/**
 * A file shown as what it is: a picture, a video or an audio player, or a document's icon and
 * name. The bytes are fetched with the session (the server's files are never public) and shown
 * through a blob address, released when the preview goes away.
 */
import AudioFile from '@mui/icons-material/AudioFile';
import Description from '@mui/icons-material/Description';
import Image from '@mui/icons-material/Image';
import Movie from '@mui/icons-material/Movie';
import Box from '@mui/material/Box';
import CircularProgress from '@mui/material/CircularProgress';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useEffect, useState } from 'react';
import type { TLocalMediaFile } from '@zapdesk/shared/media-library';
import { fetchMediaBlob } from './campaigns.api';

export type PreviewKind = TLocalMediaFile['mediaType'];
type Source = { libraryPath: string } | { campaignId: number };

const ICONS = { image: Image, video: Movie, audio: AudioFile, other: Description } as const;

export function MediaTypeIcon({ kind, fontSize = 'small' }: { kind: PreviewKind; fontSize?: 'small' | 'medium' | 'large' }) {
  const Icon = ICONS[kind];
  return <Icon fontSize={fontSize} color="action" />;
}

/** The blob address of a server file, or undefined while it loads (or when it could not be read). */
export function useMediaBlobUrl(source: Source | undefined): { url: string | undefined; failed: boolean } {
  const key = source === undefined ? '' : 'libraryPath' in source ? `l:${source.libraryPath}` : `c:${source.campaignId}`;
  const [state, setState] = useState<{ key: string; url: string | undefined; failed: boolean }>({ key: '', url: undefined, failed: false });
  useEffect(() => {
    if (!source) return undefined;
    let url: string | undefined;
    let gone = false;
    fetchMediaBlob(source)
      .then((blob) => {
        if (gone) return;
        url = URL.createObjectURL(blob);
        setState({ key, url, failed: false });
      })
      .catch(() => {
        if (!gone) setState({ key, url: undefined, failed: true });
      });
    return () => {
      gone = true;
      if (url) URL.revokeObjectURL(url);
    };
    // The key says which file; the object itself changes on every render.
  }, [key]);
  return state.key === key ? { url: state.url, failed: state.failed } : { url: undefined, failed: false };
}

type Props = { source: Source; kind: PreviewKind; name: string; maxHeight?: number; testId?: string };

export function MediaPreview({ source, kind, name, maxHeight = 180, testId = 'media-preview' }: Props) {
  const { url, failed } = useMediaBlobUrl(kind === 'other' ? undefined : source);
  const label = (
    <Stack direction="row" alignItems="center" gap={1} sx={{ minWidth: 0 }}>
      <MediaTypeIcon kind={kind} />
      <Typography variant="body2" sx={{ wordBreak: 'break-all' }}>
        {name}
      </Typography>
    </Stack>
  );
  if (kind === 'other' || failed) {
    return (
      <Box data-testid={testId} data-kind={kind}>
        {label}
      </Box>
    );
  }
  return (
    <Stack gap={1} data-testid={testId} data-kind={kind} data-ready={url ? 'true' : 'false'}>
      {url === undefined ? (
        <CircularProgress size={20} />
      ) : kind === 'image' ? (
        <Box component="img" src={url} alt={name} sx={{ maxWidth: '100%', maxHeight, objectFit: 'contain', alignSelf: 'flex-start', borderRadius: 1, border: 1, borderColor: 'divider' }} />
      ) : kind === 'video' ? (
        <Box component="video" src={url} controls sx={{ maxWidth: '100%', maxHeight, alignSelf: 'flex-start', borderRadius: 1 }} />
      ) : (
        <Box component="audio" src={url} controls preload="metadata" sx={{ width: '100%', maxWidth: 420 }} data-testid={`${testId}-audio`} />
      )}
      {label}
    </Stack>
  );
}
