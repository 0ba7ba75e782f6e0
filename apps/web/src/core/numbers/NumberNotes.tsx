/**
 * What the number rule did to typed numbers, said in plain words: the lines the ninth digit
 * changed ('(11) 8765-1111 → 5511987651111: celular brasileiro ganhou o nono dígito') and the
 * lines that stay ambiguous (listed, never sent).
 */
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import type { ParsedRecipient } from '@zapdesk/shared/campaigns';
import { ninthDigitChange, type ReadNumber } from '@zapdesk/shared/phone-numbers';

const SHOWN = 5;

/** One typed number: what it will be saved as, and why when the ninth digit changed. Nothing while it is typed as it will be kept. */
export function numberNote(t: TFunction, typed: string, read: ReadNumber): string | undefined {
  const value = typed.trim();
  if (value === '' || read.number === undefined) return undefined;
  const ninth = ninthDigitChange(read);
  if (ninth) return t(`phoneNumbers.${ninth}`, { typed: value, number: read.number });
  return read.number !== value.replace(/\D/g, '') ? t('phoneNumbers.willBe', { number: read.number }) : undefined;
}

function Lines({ testId, title, lines }: { testId: string; title: string; lines: string[] }) {
  const { t } = useTranslation();
  if (lines.length === 0) return null;
  return (
    <Box data-testid={testId}>
      <Typography variant="body2" fontWeight={600} color={testId === 'numbers-ambiguous' ? 'warning.main' : 'text.secondary'}>
        {title}
      </Typography>
      <Box component="ul" sx={{ m: 0, pl: 2.5 }}>
        {lines.slice(0, SHOWN).map((line, index) => (
          <Typography key={index} component="li" variant="body2" color="text.secondary" sx={{ overflowWrap: 'anywhere' }}>
            {line}
          </Typography>
        ))}
        {lines.length > SHOWN ? (
          <Typography component="li" variant="body2" color="text.secondary">
            {t('phoneNumbers.more', { count: lines.length - SHOWN })}
          </Typography>
        ) : null}
      </Box>
    </Box>
  );
}

/** A bulk list's notes: the ninth-digit changes, then what will not be sent and why. */
export function NumberNotes({ recipients }: { recipients: ParsedRecipient[] }) {
  const { t } = useTranslation();
  const changed = recipients.flatMap((r) => (r.ninth && r.number ? [t(`phoneNumbers.${r.ninth}`, { typed: r.input, number: r.number })] : []));
  const ambiguous = recipients.flatMap((r) => (r.problem ? [t('phoneNumbers.line', { typed: r.input, reason: t(`phoneNumbers.problems.${r.problem}`) })] : []));
  if (changed.length === 0 && ambiguous.length === 0) return null;
  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', gap: 1 }}>
      <Lines testId="numbers-changed" title={t('phoneNumbers.changed', { count: changed.length })} lines={changed} />
      <Lines testId="numbers-ambiguous" title={t('phoneNumbers.ambiguous', { count: ambiguous.length })} lines={ambiguous} />
    </Box>
  );
}
