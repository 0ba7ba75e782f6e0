/** Read by screen readers, not shown: a page's heading where the screen itself says what it is, a column without a visible title. */
export const visuallyHidden = {
  position: 'absolute',
  // Strings: MUI reads the numbers 0–1 in sx as fractions (1 would be 100%).
  width: '1px',
  height: '1px',
  margin: '-1px',
  padding: 0,
  border: 0,
  overflow: 'hidden',
  clip: 'rect(0 0 0 0)',
  whiteSpace: 'nowrap',
} as const;
