/** The chat's audio playback speed: cycles 0.5, 1, 1.5, 2, shared by every player and kept in localStorage. */
import { useSyncExternalStore } from 'react';

export const AUDIO_SPEEDS = [0.5, 1, 1.5, 2] as const;
export type AudioSpeed = (typeof AUDIO_SPEEDS)[number];

const STORAGE_KEY = 'zapdesk.audioSpeed';
const listeners = new Set<() => void>();

function read(): AudioSpeed {
  try {
    const stored = Number(localStorage.getItem(STORAGE_KEY));
    return AUDIO_SPEEDS.find((speed) => speed === stored) ?? 1;
  } catch {
    return 1;
  }
}

let current: AudioSpeed = read();

export function nextAudioSpeed(speed: AudioSpeed): AudioSpeed {
  return AUDIO_SPEEDS[(AUDIO_SPEEDS.indexOf(speed) + 1) % AUDIO_SPEEDS.length] ?? 1;
}

export function cycleAudioSpeed(): void {
  current = nextAudioSpeed(current);
  try {
    localStorage.setItem(STORAGE_KEY, String(current));
  } catch {
    // Private mode: the speed still applies until the page reloads.
  }
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

export function useAudioSpeed(): AudioSpeed {
  return useSyncExternalStore(subscribe, () => current);
}
