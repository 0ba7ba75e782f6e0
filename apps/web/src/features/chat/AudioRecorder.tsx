/**
 * Voice notes: idle (a microphone button) → recording (cancel, an mm:ss timer, send) → sending.
 * Records Ogg Opus where the browser can (Firefox), else WebM Opus (Chromium, Safari records
 * MP4); the server keeps the container the file name says and serves it with that type.
 * A recording under LIMITS.minAudioBytes is discarded with a message.
 */
import CheckCircle from '@mui/icons-material/CheckCircle';
import FiberManualRecord from '@mui/icons-material/FiberManualRecord';
import HighlightOff from '@mui/icons-material/HighlightOff';
import Mic from '@mui/icons-material/Mic';
import Box from '@mui/material/Box';
import CircularProgress from '@mui/material/CircularProgress';
import IconButton from '@mui/material/IconButton';
import Typography from '@mui/material/Typography';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'react-toastify';
import { LIMITS } from '@zapdesk/shared/domain';

/** The spec's audio bitrate, 128 kbit/s. */
const AUDIO_BITS_PER_SECOND = 128_000;
/** In order of preference: what WhatsApp plays natively first. */
const RECORDING_TYPES = [
  { mimeType: 'audio/ogg;codecs=opus', extension: 'ogg' },
  { mimeType: 'audio/webm;codecs=opus', extension: 'webm' },
  { mimeType: 'audio/mp4', extension: 'm4a' },
] as const;

export type RecorderState = 'idle' | 'recording' | 'sending';

function pickRecordingType() {
  if (typeof MediaRecorder === 'undefined') return undefined;
  return RECORDING_TYPES.find((type) => MediaRecorder.isTypeSupported(type.mimeType));
}

export function formatElapsed(seconds: number): string {
  const minutes = Math.floor(seconds / 60);
  return `${String(minutes).padStart(2, '0')}:${String(seconds % 60).padStart(2, '0')}`;
}

type Props = {
  disabled: boolean;
  onStateChange: (state: RecorderState) => void;
  onSend: (file: File) => Promise<void>;
};

export function AudioRecorder({ disabled, onStateChange, onSend }: Props) {
  const { t } = useTranslation();
  const [state, setState] = useState<RecorderState>('idle');
  const [elapsed, setElapsed] = useState(0);
  const recorderRef = useRef<MediaRecorder | null>(null);
  const chunksRef = useRef<Blob[]>([]);
  const timerRef = useRef<ReturnType<typeof setInterval> | undefined>(undefined);

  const change = (next: RecorderState) => {
    setState(next);
    onStateChange(next);
  };

  const stopTracks = () => {
    clearInterval(timerRef.current);
    recorderRef.current?.stream.getTracks().forEach((track) => track.stop());
  };
  useEffect(
    () => () => {
      const recorder = recorderRef.current;
      if (recorder && recorder.state !== 'inactive') {
        recorder.onstop = null;
        recorder.stop();
      }
      stopTracks();
    },
    [],
  );

  const start = async () => {
    const type = pickRecordingType();
    if (!type || !navigator.mediaDevices?.getUserMedia) {
      toast.error(t('chat.micUnavailable'));
      return;
    }
    let stream: MediaStream;
    try {
      stream = await navigator.mediaDevices.getUserMedia({ audio: true });
    } catch {
      toast.error(t('chat.micUnavailable'));
      return;
    }
    const recorder = new MediaRecorder(stream, { mimeType: type.mimeType, audioBitsPerSecond: AUDIO_BITS_PER_SECOND });
    chunksRef.current = [];
    recorder.ondataavailable = (event) => {
      if (event.data.size > 0) chunksRef.current.push(event.data);
    };
    recorderRef.current = recorder;
    recorder.start();
    setElapsed(0);
    const startedAt = Date.now();
    timerRef.current = setInterval(() => setElapsed(Math.floor((Date.now() - startedAt) / 1000)), 250);
    change('recording');
  };

  const cancel = () => {
    const recorder = recorderRef.current;
    if (recorder && recorder.state !== 'inactive') {
      recorder.onstop = null;
      recorder.stop();
    }
    stopTracks();
    change('idle');
  };

  const finish = () => {
    const recorder = recorderRef.current;
    if (!recorder || recorder.state === 'inactive') return;
    const type =
      RECORDING_TYPES.find((candidate) => candidate.mimeType === recorder.mimeType) ?? RECORDING_TYPES.find((candidate) => recorder.mimeType.startsWith(candidate.mimeType.split(';')[0] ?? ''));
    change('sending');
    recorder.onstop = () => {
      stopTracks();
      const mimeType = (recorder.mimeType || type?.mimeType || 'audio/webm').split(';')[0] ?? 'audio/webm';
      const blob = new Blob(chunksRef.current, { type: mimeType });
      if (blob.size < LIMITS.minAudioBytes) {
        toast.info(t('chat.audioTooShort'));
        change('idle');
        return;
      }
      // The server sends a file named audio-record… as a voice note.
      const file = new File([blob], `audio-record-${Date.now()}.${type?.extension ?? 'webm'}`, { type: mimeType });
      void onSend(file).finally(() => change('idle'));
    };
    recorder.stop();
  };

  if (state === 'idle') {
    return (
      <IconButton disabled={disabled} onClick={() => void start()} aria-label={t('chat.record')} data-testid="audio-record">
        <Mic />
      </IconButton>
    );
  }
  return (
    <Box sx={{ display: 'flex', alignItems: 'center', gap: 0.5 }} data-testid="audio-recorder" data-state={state}>
      <IconButton color="error" disabled={state === 'sending'} onClick={cancel} aria-label={t('chat.recordCancel')} data-testid="audio-cancel">
        <HighlightOff />
      </IconButton>
      {state === 'sending' ? (
        <CircularProgress size={24} aria-label={t('chat.sending')} />
      ) : (
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 0.5 }}>
          <FiberManualRecord sx={{ color: 'error.main', fontSize: 14, animation: 'zapdeskPulse 1s ease-in-out infinite', '@keyframes zapdeskPulse': { '50%': { opacity: 0.3 } } }} />
          <Typography variant="body2" sx={{ fontVariantNumeric: 'tabular-nums', minWidth: 44 }} data-testid="audio-timer">
            {formatElapsed(elapsed)}
          </Typography>
        </Box>
      )}
      <IconButton color="success" disabled={state === 'sending'} onClick={finish} aria-label={t('chat.recordSend')} data-testid="audio-send">
        <CheckCircle />
      </IconButton>
    </Box>
  );
}
