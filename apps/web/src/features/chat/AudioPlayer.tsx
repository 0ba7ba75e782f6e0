/**
 * A chat audio: the browser's player plus a speed button (0.5x, 1x, 1.5x, 2x, remembered).
 * WhatsApp voice notes are Ogg Opus, which Safari plays only from version 18.4 on (iOS 18.4):
 * such a browser loads the server's m4a copy instead (see audioSource.ts). When the file still
 * cannot be played (the copy could not be made: no ffmpeg on the server), the player says so
 * and offers the original file to download instead of leaving a silent control.
 */
import Download from '@mui/icons-material/Download';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatAudioDuration, useAudioDuration } from './audioDuration';
import { cycleAudioSpeed, useAudioSpeed } from './audioSpeed';
import { playableAudio } from './audioSource';

/** MediaError.MEDIA_ERR_SRC_NOT_SUPPORTED: the format, not the network. */
const FORMAT_NOT_SUPPORTED = 4;

export function AudioPlayer({ src }: { src: string }) {
  const { t } = useTranslation();
  const speed = useAudioSpeed();
  const audioRef = useRef<HTMLAudioElement | null>(null);
  const [unsupported, setUnsupported] = useState(false);
  const playable = useMemo(() => playableAudio(src), [src]);
  const { duration, handlers } = useAudioDuration();

  useEffect(() => {
    if (audioRef.current) audioRef.current.playbackRate = speed;
  }, [speed]);

  return (
    <Box>
      {/* A player that cannot play is hidden: the message below and the download take its place. */}
      <Box sx={{ display: unsupported ? 'none' : 'flex', alignItems: 'center', gap: 0.5 }}>
        <Box
          component="audio"
          ref={audioRef}
          controls
          preload="metadata"
          src={playable.src}
          data-format={playable.converted ? 'm4a' : 'original'}
          onLoadedMetadata={(event) => {
            event.currentTarget.playbackRate = speed;
            handlers.onLoadedMetadata(event);
          }}
          onDurationChange={handlers.onDurationChange}
          onPlay={(event) => {
            event.currentTarget.playbackRate = speed;
          }}
          onError={(event) => {
            // The copy's address failing (no ffmpeg: 503) is as final as an unknown format.
            if (event.currentTarget.error?.code === FORMAT_NOT_SUPPORTED || playable.converted) setUnsupported(true);
          }}
          sx={{ maxWidth: '100%', width: 240, height: 40 }}
          data-testid="message-audio"
          // The player itself shows the length ('0:00 / 0:07'); this names it for assistive tools and tests.
          aria-label={duration === null ? t('chat.voiceNote') : t('chat.voiceNoteLength', { length: formatAudioDuration(duration) })}
          data-duration={duration === null ? '' : formatAudioDuration(duration)}
        />

        <Button
          size="small"
          variant="outlined"
          onClick={cycleAudioSpeed}
          sx={{ minWidth: 48, px: 0.5, borderRadius: 4, fontWeight: 700 }}
          aria-label={t('chat.audioSpeed')}
          data-testid="audio-speed"
          data-speed={speed}
        >
          {speed}x
        </Button>
      </Box>
      {unsupported ? (
        <Box sx={{ display: 'flex', flexDirection: 'column', gap: 0.5, alignItems: 'flex-start', mt: 0.5 }} data-testid="message-audio-unsupported">
          <Typography variant="body2" color="text.secondary">
            {t('chat.audioUnsupported')}
          </Typography>
          <Button href={src} download variant="outlined" size="small" startIcon={<Download />}>
            {t('chat.download')}
          </Button>
        </Box>
      ) : null}
    </Box>
  );
}
