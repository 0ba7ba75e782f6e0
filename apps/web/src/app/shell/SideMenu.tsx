import ExpandLess from '@mui/icons-material/ExpandLess';
import ExpandMore from '@mui/icons-material/ExpandMore';
import Badge from '@mui/material/Badge';
import ButtonBase from '@mui/material/ButtonBase';
import Collapse from '@mui/material/Collapse';
import Divider from '@mui/material/Divider';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import Tooltip from '@mui/material/Tooltip';
import { Fragment, useState } from 'react';
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
type FoldableSection = Exclude<MenuSection, 'main'>;

const FOLDED_KEY = 'zapdesk.menuFolded';

/** The sections the user folded, remembered in this browser. */
function readFolded(): FoldableSection[] {
  try {
    const stored: unknown = JSON.parse(localStorage.getItem(FOLDED_KEY) ?? '[]');
    return Array.isArray(stored) ? stored.filter((s): s is FoldableSection => s === 'bulk' || s === 'admin') : [];
  } catch {
    return [];
  }
}

export function SideMenu({ collapsed, onNavigate }: Props) {
  const { t } = useTranslation();
  const { isAdmin, can } = useAuth();
  const { pathname } = useLocation();
  const connectionAlert = useConnectionAlert();
  // The sections fold, so that Administration stays in reach below the many tools; the section
  // of the page on screen always shows its entries.
  const [folded, setFolded] = useState(readFolded);
  const toggle = (section: FoldableSection) => {
    const next = folded.includes(section) ? folded.filter((s) => s !== section) : [...folded, section];
    setFolded(next);
    try {
      localStorage.setItem(FOLDED_KEY, JSON.stringify(next));
    } catch {
      // Private mode: the choice holds until the page reloads.
    }
  };

  // Only the pages the user may use are in the menu (admin pages for admins, a power's pages for
  // the roles that hold it); a section left with no entry is left out.
  const itemsOf = (section: MenuSection) => PRIVATE_ROUTES.filter((route) => route.menu?.section === section && (!route.adminOnly || isAdmin) && (!route.permission || can(route.permission)));
  const sections = (['main', 'bulk', 'admin'] as const).filter((section) => itemsOf(section).length > 0);

  const renderItem = (route: PrivateRoute) => {
    if (!route.menu) return null;
    const Icon = route.menu.icon;
    const label = t(`menu.${route.labelKey}`);
    const showAlert = route.labelKey === 'connections' && connectionAlert;
    const button = (
      <ListItemButton
        component={Link}
        to={route.path}
        selected={isSelected(pathname, route.path)}
        onClick={onNavigate}
        data-testid={`menu-${route.labelKey}`}
        data-alert={route.labelKey === 'connections' ? String(connectionAlert) : undefined}
        aria-current={isSelected(pathname, route.path) ? 'page' : undefined}
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
    // Each entry a list item, so that the menu reads as lists of links.
    return (
      <ListItem key={route.path} disablePadding sx={{ display: 'block' }}>
        {collapsed ? (
          <Tooltip title={label} placement="right">
            {button}
          </Tooltip>
        ) : (
          button
        )}
      </ListItem>
    );
  };

  const renderSection = (section: MenuSection) => {
    const items = itemsOf(section);
    if (section === 'main') return <List disablePadding>{items.map(renderItem)}</List>;
    const label = t(`menu.${SECTION_LABELS[section]}`);
    const here = items.some((route) => isSelected(pathname, route.path));
    const open = collapsed || here || !folded.includes(section);
    const listId = `menu-section-${section}-items`;
    return (
      <>
        <Divider sx={{ mt: 1 }} />
        {collapsed ? null : (
          <ButtonBase
            onClick={() => toggle(section)}
            disabled={here}
            aria-expanded={open}
            aria-controls={listId}
            aria-label={t(open ? 'menu.collapseSection' : 'menu.expandSection', { section: label })}
            data-testid={`menu-section-${section}`}
            data-open={open}
            sx={{
              width: 'calc(100% - 16px)',
              mx: 1,
              mt: 0.5,
              px: 2,
              height: 36,
              borderRadius: 2,
              justifyContent: 'space-between',
              color: 'text.secondary',
              fontSize: 12,
              fontWeight: 700,
              textTransform: 'uppercase',
              letterSpacing: '0.06em',
              '&:hover': { bgcolor: 'action.hover' },
              '&.Mui-disabled': { color: 'text.secondary' },
            }}
          >
            <span>{label}</span>
            {here ? null : open ? <ExpandLess fontSize="small" /> : <ExpandMore fontSize="small" />}
          </ButtonBase>
        )}
        <Collapse in={open} timeout="auto" unmountOnExit>
          <List disablePadding id={listId}>
            {items.map(renderItem)}
          </List>
        </Collapse>
      </>
    );
  };

  return (
    <nav aria-label={t('menu.navigation')} data-testid="side-menu">
      {sections
        .filter((section) => itemsOf(section).length > 0)
        .map((section) => (
          <Fragment key={section}>{renderSection(section)}</Fragment>
        ))}
    </nav>
  );
}
