/** The dashboard's period: Today (the spec's view), the last 7 or the last 30 days. */
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import { DASHBOARD_RANGES, type DashboardRange } from '@zapdesk/shared/messaging';
import { useTranslation } from 'react-i18next';

export function RangePicker({ value, onChange }: { value: DashboardRange; onChange: (range: DashboardRange) => void }) {
  const { t } = useTranslation();
  return (
    <ToggleButtonGroup
      value={value}
      exclusive
      size="small"
      onChange={(_, range: DashboardRange | null) => range && onChange(range)}
      aria-label={t('dashboard.range.label')}
      data-testid="dashboard-range"
      sx={{ alignSelf: { xs: 'stretch', md: 'center' }, '& .MuiToggleButton-root': { flex: { xs: 1, md: 'none' }, px: 1.75, whiteSpace: 'nowrap' } }}
    >
      {DASHBOARD_RANGES.map((range) => (
        <ToggleButton key={range} value={range} data-testid={`dashboard-range-${range}`}>
          {t(`dashboard.range.${range}`)}
        </ToggleButton>
      ))}
    </ToggleButtonGroup>
  );
}
