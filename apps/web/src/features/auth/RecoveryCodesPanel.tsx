/** The recovery codes, shown once after they are made: to copy, download or write down. */
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import ContentCopyOutlined from '@mui/icons-material/ContentCopyOutlined';
import DownloadOutlined from '@mui/icons-material/DownloadOutlined';
import { useTranslation } from 'react-i18next';
import { toast } from 'react-toastify';

export function RecoveryCodesPanel({ codes }: { codes: string[] }) {
  const { t } = useTranslation();
  const text = `${t('twoFactor.recoveryFileTitle')}\n\n${codes.join('\n')}\n`;

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(codes.join('\n'));
      toast.success(t('common.copied'));
    } catch {
      toast.error(t('twoFactor.copyFailed'));
    }
  };

  const download = () => {
    const url = URL.createObjectURL(new Blob([text], { type: 'text/plain;charset=utf-8' }));
    const link = document.createElement('a');
    link.href = url;
    link.download = 'zapdesk-codigos-de-recuperacao.txt';
    document.body.append(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
  };

  return (
    <Stack gap={2} data-testid="recovery-codes">
      <Alert severity="warning">{t('twoFactor.recoveryIntro')}</Alert>
      <Box component="ul" sx={{ m: 0, p: 2, display: 'grid', gridTemplateColumns: 'repeat(2, 1fr)', gap: 1, listStyle: 'none', bgcolor: 'action.hover', borderRadius: 1 }}>
        {codes.map((code) => (
          <Box component="li" key={code} sx={{ fontFamily: 'monospace', fontSize: 16, textAlign: 'center' }} data-testid="recovery-code">
            {code}
          </Box>
        ))}
      </Box>
      <Stack direction="row" gap={1} justifyContent="center">
        <Button variant="outlined" startIcon={<ContentCopyOutlined />} onClick={() => void copy()} data-testid="recovery-codes-copy">
          {t('common.copy')}
        </Button>
        <Button variant="outlined" startIcon={<DownloadOutlined />} onClick={download} data-testid="recovery-codes-download">
          {t('twoFactor.download')}
        </Button>
      </Stack>
    </Stack>
  );
}
