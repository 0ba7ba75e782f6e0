import SearchIcon from '@mui/icons-material/Search';
import InputAdornment from '@mui/material/InputAdornment';
import TextField from '@mui/material/TextField';

type Props = { value: string; onChange: (value: string) => void; placeholder: string; testId?: string; fullWidth?: boolean; autoFocus?: boolean };

export function SearchField({ value, onChange, placeholder, testId = 'search-input', fullWidth = false, autoFocus = false }: Props) {
  return (
    <TextField
      size="small"
      type="search"
      value={value}
      onChange={(event) => onChange(event.target.value)}
      placeholder={placeholder}
      fullWidth={fullWidth}
      autoFocus={autoFocus}
      sx={fullWidth ? undefined : { minWidth: { xs: '100%', sm: 280 } }}
      slotProps={{
        input: {
          startAdornment: (
            <InputAdornment position="start">
              <SearchIcon fontSize="small" color="action" />
            </InputAdornment>
          ),
        },
        htmlInput: { 'data-testid': testId, 'aria-label': placeholder },
      }}
    />
  );
}
