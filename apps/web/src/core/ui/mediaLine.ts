/** A ticket's list line in the reader's language: the server stores a marker for media without text ('🎤 Audio'). */
import { mediaLineKind } from '@zapdesk/shared/messaging';
import type { TFunction } from 'i18next';

export function listLine(line: string, t: TFunction): string {
  const kind = mediaLineKind(line);
  return kind ? t(`mediaLines.${kind}`) : line;
}
