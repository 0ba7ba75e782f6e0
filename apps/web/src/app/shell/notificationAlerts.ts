/**
 * How a new message announces itself: a short two-note chime made with WebAudio (no audio file
 * to load) and a desktop notification when the browser allows them.
 */

let context: AudioContext | null = null;
let gestured = false;

/** True once the page had a click or key press: before that, browsers refuse audio (and warn each time). */
function hadGesture(): boolean {
  return gestured || (typeof navigator !== 'undefined' && 'userActivation' in navigator && navigator.userActivation.hasBeenActive);
}

function audioContext(): AudioContext | null {
  if (typeof window === 'undefined' || typeof window.AudioContext !== 'function' || !hadGesture()) return null;
  context ??= new window.AudioContext();
  return context;
}

/**
 * Browsers keep audio silent until the page had a user gesture: nothing touches audio before it
 * (a message that arrives earlier shows its notification without the chime), and the context is
 * created on the first click or key press, so the next chime is heard.
 */
export function unlockAudioOnFirstGesture(): () => void {
  const unlock = () => {
    gestured = true;
    const ctx = audioContext();
    if (ctx && ctx.state === 'suspended') void ctx.resume().catch(() => undefined);
    window.removeEventListener('pointerdown', unlock);
    window.removeEventListener('keydown', unlock);
  };
  window.addEventListener('pointerdown', unlock);
  window.addEventListener('keydown', unlock);
  return () => {
    window.removeEventListener('pointerdown', unlock);
    window.removeEventListener('keydown', unlock);
  };
}

export function playChime(): void {
  const ctx = audioContext();
  if (!ctx) return;
  if (ctx.state === 'suspended') void ctx.resume().catch(() => undefined);
  const start = ctx.currentTime + 0.01;
  [880, 1318.5].forEach((frequency, index) => {
    const at = start + index * 0.12;
    const oscillator = ctx.createOscillator();
    const gain = ctx.createGain();
    oscillator.type = 'sine';
    oscillator.frequency.value = frequency;
    gain.gain.setValueAtTime(0.0001, at);
    gain.gain.exponentialRampToValueAtTime(0.18, at + 0.015);
    gain.gain.exponentialRampToValueAtTime(0.0001, at + 0.28);
    oscillator.connect(gain).connect(ctx.destination);
    oscillator.start(at);
    oscillator.stop(at + 0.3);
  });
}

export function desktopPermission(): NotificationPermission | 'unsupported' {
  return typeof window !== 'undefined' && 'Notification' in window ? Notification.permission : 'unsupported';
}

/** Asks once, from a user gesture (opening the bell): browsers ignore requests made without one. */
export async function requestDesktopPermission(): Promise<NotificationPermission | 'unsupported'> {
  if (desktopPermission() !== 'default') return desktopPermission();
  try {
    return await Notification.requestPermission();
  } catch {
    return desktopPermission();
  }
}

export function showDesktopNotification(options: { title: string; body: string; icon?: string; tag: string; onClick: () => void }): void {
  if (desktopPermission() !== 'granted') return;
  try {
    const notification = new Notification(options.title, { body: options.body, icon: options.icon || '/favicon.svg', tag: options.tag });
    notification.onclick = () => {
      window.focus();
      options.onClick();
      notification.close();
    };
  } catch {
    // Some mobile browsers only allow notifications from a service worker: the chime is enough.
  }
}
