import { useEffect, useRef, type RefObject } from 'react';

/** A scroll this soon after the reader's wheel, finger, key or pointer is the reader's. */
const READER_SCROLL_MS = 500;
/** At most this many frames of following the rows a jump to the end brings into view (about half a second). */
const FOLLOW_FRAMES_MAX = 30;
const KEYS_DOWN = new Set(['End', 'PageDown', 'ArrowDown', ' ']);

/**
 * A chat's list follows its end while the reader is there: new rows, a picture that loads, rows
 * measured taller keep it at the end. Only the reader leaves the end or comes back to it, with the
 * wheel, a finger, a key or the scroll bar: the scroll position alone cannot say it, since Virtuoso
 * moves the scroll itself (while an older page is put above, the position reads 'at the end' for
 * a moment, before the list has grown).
 */
export function useFollowEnd(scroller: RefObject<HTMLElement | null>, element: HTMLElement | null, atEndPx: number) {
  const atEnd = useRef(true);
  const reader = useRef({ at: 0, down: false });
  useEffect(() => {
    if (!element) return;
    const mark = (down: boolean) => {
      reader.current = { at: performance.now(), down };
    };
    const onWheel = (event: WheelEvent) => mark(event.deltaY > 0);
    const onKey = (event: KeyboardEvent) => mark(KEYS_DOWN.has(event.key));
    // A finger or the scroll bar may go either way.
    const onOther = () => mark(true);
    const onScroll = () => {
      if (performance.now() - reader.current.at > READER_SCROLL_MS) return;
      const distance = element.scrollHeight - element.scrollTop - element.clientHeight;
      if (distance >= atEndPx) atEnd.current = false;
      else if (reader.current.down) atEnd.current = true;
    };
    element.addEventListener('wheel', onWheel, { passive: true });
    element.addEventListener('keydown', onKey);
    element.addEventListener('touchmove', onOther, { passive: true });
    element.addEventListener('pointerdown', onOther, { passive: true });
    element.addEventListener('scroll', onScroll, { passive: true });
    return () => {
      element.removeEventListener('wheel', onWheel);
      element.removeEventListener('keydown', onKey);
      element.removeEventListener('touchmove', onOther);
      element.removeEventListener('pointerdown', onOther);
      element.removeEventListener('scroll', onScroll);
    };
  }, [element, atEndPx]);

  /**
   * Brings the list to its end and keeps it there while the rows the jump brings into view are
   * measured (the list grows, or Virtuoso moves the scroll to keep rows in place): until the
   * list's height has held for two frames, unless the reader scrolls meanwhile. Virtuoso measures
   * rows in whole pixels, a few pixels short of the real end over a screen of rows, so the end is
   * set on the scroller itself.
   */
  const stickToBottom = () => {
    atEnd.current = true;
    const started = performance.now();
    let height = -1;
    let held = 0;
    let frames = 0;
    const follow = () => {
      const current = scroller.current;
      if (!current || reader.current.at > started) return;
      current.scrollTop = current.scrollHeight;
      held = current.scrollHeight === height ? held + 1 : 0;
      height = current.scrollHeight;
      frames += 1;
      if (held < 2 && frames < FOLLOW_FRAMES_MAX) requestAnimationFrame(follow);
    };
    requestAnimationFrame(follow);
  };

  return { stickToBottom, isAtEnd: () => atEnd.current };
}
