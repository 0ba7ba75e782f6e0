import Badge from '@mui/material/Badge';
import Divider from '@mui/material/Divider';
import List from '@mui/material/List';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import ListSubheader from '@mui/material/ListSubheader';
import Tooltip from '@mui/material/Tooltip';
import { Fragment } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import { useAuth } from '../../core/auth/AuthProvider';
import { PRIVATE_ROUTES, SECTION_LABELS, type MenuSection, type PrivateRoute } from '../routes';
import { useConnectionAlert } from './useConnectionAlert';

function isSelected(pathname: string, path: string): boolean {
  const current = pathname.toLowerCase();
  const target = path.toLowerCase();
  return target === '/' ? current === '/' : current === target || current.startsWith(`${target}/`);
}

type Props = { collapsed: boolean; onNavigate: () => void };

export function SideMenu({ collapsed, onNavigate }: Props) {
  const { t } = useTranslation();
  const { isAdmin } = useAuth();
  const { pathname } = useLocation();
  const connectionAlert = useConnectionAlert();

  const sections: MenuSection[] = isAdmin ? ['main', 'bulk', 'admin'] : ['main', 'bulk'];
  // Only pages that exist are in the menu: a tool still to come has no entry (its address shows
  // that it is coming), and a section with none of its pages yet is left out.
  const itemsOf = (section: MenuSection) => PRIVATE_ROUTES.filter((route) => route.menu?.section === section);

  const renderItem = (route: PrivateRoute) => {
    if (!route.menu) return null;
    const Icon = route.menu.icon;
    const label = t(`menu.${route.labelKey}`);
    const showAlert = route.labelKey === 'connections' && connectionAlert;
    const button = (
      <ListItemButton
        key={route.path}
        component={Link}
        to={route.path}
        selected={isSelected(pathname, route.path)}
        onClick={onNavigate}
        data-testid={`menu-${route.labelKey}`}
        data-alert={route.labelKey === 'connections' ? String(connectionAlert) : undefined}
        sx={{ mx: 1, my: 0.25, px: collapsed ? 1.5 : 2, minHeight: 42, justifyContent: collapsed ? 'center' : 'flex-start' }}
      >
        <ListItemIcon sx={{ minWidth: collapsed ? 0 : 40, justifyContent: 'center' }}>
          <Badge color="error" variant="dot" invisible={!showAlert} title={showAlert ? t('menu.connectionsAlert') : undefined}>
            <Icon fontSize="small" />
          </Badge>
        </ListItemIcon>
        {collapsed ? null : <ListItemText primary={label} slotProps={{ primary: { variant: 'body2', fontWeight: 500, lineHeight: 1.3 } }} />}
      </ListItemButton>
    );
    return collapsed ? (
      <Tooltip key={route.path} title={label} placement="right">
        {button}
      </Tooltip>
    ) : (
      button
    );
  };

  return (
    <nav aria-label={t('menu.open')} data-testid="side-menu">
      {sections
        .filter((section) => itemsOf(section).length > 0)
        .map((section) => (
          <Fragment key={section}>
            {section === 'main' ? null : collapsed ? (
              <Divider sx={{ my: 1 }} />
            ) : (
              <>
                <Divider sx={{ mt: 1 }} />
                <ListSubheader
                  component="div"
                  disableSticky
                  sx={{ lineHeight: '36px', mt: 0.5, fontSize: 12, fontWeight: 700, textTransform: 'uppercase', letterSpacing: '0.06em', bgcolor: 'transparent' }}
                  data-testid={`menu-section-${section}`}
                >
                  {t(`menu.${SECTION_LABELS[section]}`)}
                </ListSubheader>
              </>
            )}
            <List dense disablePadding>
              {itemsOf(section).map(renderItem)}
            </List>
          </Fragment>
        ))}
    </nav>
  );
}
