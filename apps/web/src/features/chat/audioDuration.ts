/**
 * A voice note's length, known before it is played. The browser reads it from the file's header
 * (preload="metadata"); for Ogg and WebM recordings Chromium reports Infinity until the end has
 * been reached, so the player is sent past the end once, silently, which makes the browser read
 * the real length, and brought back to the start.
 */
import { useCallback, useState, type SyntheticEvent } from 'react';

const PAST_THE_END = 1e101;

export function formatAudioDuration(seconds: number): string {
  const whole = Math.max(0, Math.round(seconds));
  const minutes = Math.floor(whole / 60);
  return `${minutes}:${String(whole % 60).padStart(2, '0')}`;
}

/** The length in seconds once known (null before), and the handlers to put on the <audio>. */
export function useAudioDuration(): {
  duration: number | null;
  handlers: { onLoadedMetadata: (event: SyntheticEvent<HTMLAudioElement>) => void; onDurationChange: (event: SyntheticEvent<HTMLAudioElement>) => void };
} {
  const [duration, setDuration] = useState<number | null>(null);

  const onDurationChange = useCallback((event: SyntheticEvent<HTMLAudioElement>) => {
    const audio = event.currentTarget;
    if (!Number.isFinite(audio.duration) || audio.duration <= 0) return;
    setDuration(audio.duration);
    // Back from the trip past the end, before anyone presses play.
    if (audio.currentTime > 0 && audio.paused && audio.currentTime >= audio.duration) audio.currentTime = 0;
  }, []);

  const onLoadedMetadata = useCallback(
    (event: SyntheticEvent<HTMLAudioElement>) => {
      const audio = event.currentTarget;
      if (Number.isFinite(audio.duration)) onDurationChange(event);
      else if (audio.paused && audio.currentTime === 0) audio.currentTime = PAST_THE_END;
    },
    [onDurationChange],
  );

  return { duration, handlers: { onLoadedMetadata, onDurationChange } };
}
