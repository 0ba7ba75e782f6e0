/**
 * The signed-in frame: title bar, side drawer (240px; collapsible to icons on wide screens,
 * temporary below 600px) and the page outlet.
 */
import ChevronLeft from '@mui/icons-material/ChevronLeft';
import MenuIcon from '@mui/icons-material/Menu';
import AppBar from '@mui/material/AppBar';
import Box from '@mui/material/Box';
import Drawer from '@mui/material/Drawer';
import IconButton from '@mui/material/IconButton';
import Toolbar from '@mui/material/Toolbar';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import { Suspense, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Outlet } from 'react-router';
import { LIMITS } from '@zapdesk/shared/domain';
import { CenteredLoader } from '../../core/ui/CenteredLoader';
import { Logo } from '../../core/ui/Logo';
import { LanguageMenu } from './LanguageMenu';
import { NotificationsBell } from './NotificationsBell';
import { SideMenu } from './SideMenu';
import { SignInNotices } from './SignInNotices';
import { UserMenu } from './UserMenu';

const DRAWER_WIDTH = LIMITS.drawerWidth;
const COLLAPSED_WIDTH = 68;

export function AppShell() {
  const { t } = useTranslation();
  const wide = useMediaQuery(`(min-width:${LIMITS.mobileBreakpoint + 1}px)`, { noSsr: true });
  const [open, setOpen] = useState(wide);

  // Crossing the breakpoint resets the drawer: open on wide screens, closed on narrow ones.
  useEffect(() => setOpen(wide), [wide]);

  const width = wide ? (open ? DRAWER_WIDTH : COLLAPSED_WIDTH) : DRAWER_WIDTH;

  return (
    <Box sx={{ display: 'flex', height: '100dvh', bgcolor: 'background.default' }}>
      {/* The first stop of the Tab key: past the title bar and the menu, straight to the page. */}
      <Box
        component="a"
        href="#main-content"
        onClick={(event) => {
          event.preventDefault();
          document.getElementById('main-content')?.focus();
        }}
        data-testid="skip-to-content"
        sx={{
          position: 'fixed',
          left: 8,
          top: -48,
          zIndex: (theme) => theme.zIndex.tooltip + 1,
          px: 2,
          py: 1,
          borderRadius: 1,
          bgcolor: 'background.paper',
          color: 'primary.dark',
          fontWeight: 600,
          boxShadow: 3,
          '&:focus': { top: 8 },
        }}
      >
        {t('menu.skipToContent')}
      </Box>
      <AppBar position="fixed" sx={{ zIndex: (theme) => theme.zIndex.drawer + 1, background: 'linear-gradient(90deg, #00695C 0%, #00897B 100%)' }} data-testid="app-bar">
        <Toolbar sx={{ gap: 1 }}>
          <IconButton color="inherit" edge="start" onClick={() => setOpen((v) => !v)} aria-label={open ? t('menu.close') : t('menu.open')} data-testid="drawer-toggle">
            {open && wide ? <ChevronLeft /> : <MenuIcon />}
          </IconButton>
          <Logo size={30} />
          <Typography variant="h6" component="div" fontWeight={700} noWrap sx={{ flexGrow: 1, ml: 0.5 }} data-testid="app-title">
            {t('app.name')}
          </Typography>
          <LanguageMenu />
          <NotificationsBell />
          <UserMenu />
        </Toolbar>
      </AppBar>
      <Drawer
        variant={wide ? 'permanent' : 'temporary'}
        open={open}
        onClose={() => setOpen(false)}
        ModalProps={{ keepMounted: true }}
        sx={{
          width,
          flexShrink: 0,
          transition: (theme) => theme.transitions.create('width', { duration: theme.transitions.duration.shorter }),
          '& .MuiDrawer-paper': {
            width,
            boxSizing: 'border-box',
            overflowX: 'hidden',
            borderRight: '1px solid #E3E8EE',
            transition: (theme) => theme.transitions.create('width', { duration: theme.transitions.duration.shorter }),
          },
        }}
        data-testid="drawer"
      >
        <Toolbar />
        <Box sx={{ overflowY: 'auto', overflowX: 'hidden', py: 1 }}>
          <SideMenu collapsed={wide && !open} onNavigate={() => (wide ? undefined : setOpen(false))} />
        </Box>
      </Drawer>
      <Box component="main" sx={{ flexGrow: 1, minWidth: 0, display: 'flex', flexDirection: 'column' }}>
        <Toolbar />
        <SignInNotices />
        <Box id="main-content" tabIndex={-1} sx={{ flex: 1, minHeight: 0, overflow: 'auto', '&:focus': { outline: 'none' } }}>
          <Suspense fallback={<CenteredLoader />}>
            <Outlet />
          </Suspense>
        </Box>
      </Box>
    </Box>
  );
}
