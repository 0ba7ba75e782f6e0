/**
 * A ticket's line in a list, on one line: WhatsApp's marks applied (*negrito*, _itálico_,
 * ~riscado~, ```mono```) rather than shown raw, and in a search result the searched words marked.
 */
import Box from '@mui/material/Box';
import { Fragment } from 'react';
import { matchRanges } from '@zapdesk/shared/text-match';
import { whatsappSegments, type TextSegment } from '../chat/messageContent';

const SEGMENT_SX: Record<TextSegment['style'], object> = {
  plain: {},
  bold: { fontWeight: 700 },
  italic: { fontStyle: 'italic' },
  strike: { textDecoration: 'line-through' },
  mono: { fontFamily: 'monospace' },
};

/** The text with the searched words wrapped in <mark>. */
function Marked({ text, words }: { text: string; words: string[] }) {
  const ranges = matchRanges(text, words);
  if (ranges.length === 0) return <>{text}</>;
  const parts: React.ReactNode[] = [];
  let last = 0;
  for (const [start, end] of ranges) {
    if (start > last) parts.push(<Fragment key={`t${last}`}>{text.slice(last, start)}</Fragment>);
    parts.push(
      <Box key={`m${start}`} component="mark" sx={{ bgcolor: 'warning.light', color: 'inherit', borderRadius: 0.5, px: 0.25 }} data-testid="ticket-match-mark">
        {text.slice(start, end)}
      </Box>,
    );
    last = end;
  }
  if (last < text.length) parts.push(<Fragment key={`t${last}`}>{text.slice(last)}</Fragment>);
  return <>{parts}</>;
}

export function PreviewLine({ text, words = [] }: { text: string; words?: string[] }) {
  const line = text.replace(/\s+/g, ' ').trim();
  if (!line) return <>{'\u00A0'}</>;
  return (
    <>
      {whatsappSegments(line).map((segment, index) =>
        segment.style === 'plain' ? (
          <Marked key={index} text={segment.text} words={words} />
        ) : (
          <Box key={index} component="span" sx={SEGMENT_SX[segment.style]}>
            <Marked text={segment.text} words={words} />
          </Box>
        ),
      )}
    </>
  );
}
