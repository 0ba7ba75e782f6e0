/**
 * Which address the chat's player loads for an audio message. WhatsApp voice notes are Ogg Opus;
 * a browser that cannot play it (Safari before 18.4: `canPlayType` answers '') gets the
 * server's m4a copy (AAC in MP4, made once by ffmpeg) through `&format=m4a` on the same signed
 * address. Audio already in MP4 or MP3 comes back as it is.
 */

let oggPlayable: boolean | undefined;

/** Whether this browser plays Ogg Opus, asked once. */
export function playsOggOpus(): boolean {
  oggPlayable ??= typeof document !== 'undefined' && document.createElement('audio').canPlayType('audio/ogg; codecs=opus') !== '';
  return oggPlayable;
}

/** The same media address asking for its m4a copy. */
export function m4aAddress(src: string): string {
  const url = new URL(src, window.location.href);
  url.searchParams.set('format', 'm4a');
  return url.origin === window.location.origin ? `${url.pathname}${url.search}` : url.toString();
}

export function playableAudio(src: string): { src: string; converted: boolean } {
  return playsOggOpus() ? { src, converted: false } : { src: m4aAddress(src), converted: true };
}
