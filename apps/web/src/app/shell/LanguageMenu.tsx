import Check from '@mui/icons-material/Check';
import TranslateIcon from '@mui/icons-material/Translate';
import Button from '@mui/material/Button';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { changeLanguage, currentLanguage, LANGUAGES } from '../../i18n/i18n';

export function LanguageMenu() {
  const { t } = useTranslation();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const language = currentLanguage();

  return (
    <>
      <Button
        color="inherit"
        onClick={(event) => setAnchor(event.currentTarget)}
        startIcon={<TranslateIcon fontSize="small" />}
        // The name keeps the code it shows ('PT'), as speech and voice control expect.
        aria-label={`${t('language.label')}: ${language.toUpperCase()}`}
        aria-haspopup="menu"
        data-testid="language-button"
        sx={{ minWidth: 0, px: 1.25 }}
      >
        {language.toUpperCase()}
      </Button>
      <Menu
        anchorEl={anchor}
        open={anchor !== null}
        onClose={() => setAnchor(null)}
        anchorOrigin={{ vertical: 'bottom', horizontal: 'right' }}
        transformOrigin={{ vertical: 'top', horizontal: 'right' }}
      >
        {LANGUAGES.map((option) => (
          <MenuItem
            key={option}
            selected={option === language}
            data-testid={`language-option-${option}`}
            onClick={() => {
              setAnchor(null);
              void changeLanguage(option);
            }}
          >
            <ListItemIcon>{option === language ? <Check fontSize="small" /> : null}</ListItemIcon>
            <ListItemText>{t(`language.${option}`)}</ListItemText>
          </MenuItem>
        ))}
      </Menu>
    </>
  );
}
