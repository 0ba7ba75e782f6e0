/**
 * Global settings, grouped: every change saves at once. Toggles and the select save on change,
 * text fields when left or on Enter; secrets are write-only; the API token is read-only.
 */
import Box from '@mui/material/Box';
import Divider from '@mui/material/Divider';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import { toast } from 'react-toastify';
import { SETTING_KEYS, SETTINGS, type SettingKey } from '@zapdesk/shared/domain';
import type { TSetting } from '@zapdesk/shared/schemas';
import { forgetDefaultCountryCode } from '../../core/numbers/useNumberReader';
import { CenteredLoader } from '../../core/ui/CenteredLoader';
import { PageLayout } from '../../core/ui/PageLayout';
import { toastError } from '../../core/ui/toastError';
import { ApiTokensPanel } from './ApiTokensPanel';
import { ChatbotStatus } from './ChatbotStatus';
import { EmailPanel } from './EmailPanel';
import { VonagePanel } from './VonagePanel';
import { BusinessHoursSettings } from '../business-hours/BusinessHoursSettings';
import { ApiTokenControl, SecretControl, SelectControl, TextControl, ToggleControl } from './SettingControls';
import { saveSetting, useSettings } from './settings.api';

type Group = (typeof SETTINGS)[SettingKey]['group'];
const GROUPS: readonly Group[] = ['general', 'typebot', 'email', 'vonage', 'api'];

function isSecret(key: SettingKey): boolean {
  const definition = SETTINGS[key];
  return 'secret' in definition && definition.secret;
}

export default function SettingsPage() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const settings = useSettings();
  const byKey = new Map((settings.data ?? []).map((setting) => [setting.key, setting]));
  const { hash } = useLocation();
  const loaded = !settings.isPending;
  // Other pages link to a group (e.g. /settings#vonage from the SMS page): shown once it is there.
  useEffect(() => {
    if (loaded && hash) document.getElementById(hash.slice(1))?.scrollIntoView({ block: 'start' });
  }, [loaded, hash]);

  const save = async (key: SettingKey, typed: string): Promise<boolean> => {
    // '+55' is how a country code is usually written: the setting keeps the digits.
    const value = key === 'defaultCountryCode' ? typed.replace(/^\+/, '') : typed;
    // Toggles and the select move at once; a refused change moves back.
    try {
      await saveSetting(queryClient, key, value, { secret: isSecret(key) });
      if (key === 'defaultCountryCode') forgetDefaultCountryCode(queryClient);
      toast.success(t('settings.saved'), { toastId: `setting-${key}` });
      return true;
    } catch (error) {
      toastError(error);
      return false;
    }
  };

  const renderControl = (key: SettingKey, setting: TSetting) => {
    const definition = SETTINGS[key];
    if (definition.kind === 'toggle') return <ToggleControl settingKey={key} value={setting.value} onSave={save} />;
    if (definition.kind === 'select') return <SelectControl settingKey={key} value={setting.value} onSave={save} />;
    if (definition.kind === 'readonly') return <ApiTokenControl value={setting.value} />;
    if (isSecret(key)) return <SecretControl settingKey={key} isSet={setting.isSet} onSave={save} />;
    return <TextControl settingKey={key} value={setting.value} onSave={save} />;
  };

  return (
    <PageLayout title={t('settings.title')} subtitle={t('settings.subtitle')} testId="settings-page">
      {settings.isPending ? (
        <CenteredLoader />
      ) : (
        <Stack gap={3} sx={{ maxWidth: 960, width: '100%', pb: 3 }}>
          {GROUPS.map((group) => {
            const keys = SETTING_KEYS.filter((key) => SETTINGS[key].group === group && byKey.has(key));
            if (keys.length === 0) return null;
            return (
              <Paper key={group} id={group} variant="outlined" sx={{ scrollMarginTop: 16 }} data-testid={`settings-group-${group}`}>
                <Typography variant="subtitle1" component="h2" fontWeight={700} sx={{ px: 3, pt: 2, pb: 1 }}>
                  {t(`settings.groups.${group}`)}
                </Typography>
                {keys.map((key, index) => {
                  const setting = byKey.get(key);
                  if (!setting) return null;
                  return (
                    <Box key={key}>
                      {index > 0 ? <Divider sx={{ mx: 3 }} /> : null}
                      <Stack
                        direction={{ xs: 'column', sm: 'row' }}
                        alignItems={{ xs: 'stretch', sm: 'center' }}
                        justifyContent="space-between"
                        gap={{ xs: 1, sm: 3 }}
                        sx={{ px: 3, py: 1.75 }}
                        data-testid={`setting-row-${key}`}
                      >
                        <Box sx={{ minWidth: 0 }}>
                          <Typography variant="body1" fontWeight={600}>
                            {t(`settings.keys.${key}.label`)}
                          </Typography>
                          <Typography variant="body2" color="text.secondary">
                            {t(`settings.keys.${key}.help`)}
                          </Typography>
                        </Box>
                        <Box sx={{ flexShrink: 0, width: { xs: '100%', sm: 320 }, display: 'flex', justifyContent: { sm: 'flex-end' } }}>{renderControl(key, setting)}</Box>
                      </Stack>
                    </Box>
                  );
                })}
                {group === 'email' ? <EmailPanel /> : null}
                {group === 'vonage' ? <VonagePanel /> : null}
                {group === 'typebot' ? <ChatbotStatus /> : null}
                {group === 'api' ? <ApiTokensPanel /> : null}
              </Paper>
            );
          })}
          <BusinessHoursSettings />
        </Stack>
      )}
    </PageLayout>
  );
}
