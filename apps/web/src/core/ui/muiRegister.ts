import type { UseFormRegisterReturn } from 'react-hook-form';

/** react-hook-form's register() for MUI text fields, whose DOM input takes the ref as `inputRef`. */
export function muiRegister<N extends string>({ ref, ...rest }: UseFormRegisterReturn<N>) {
  return { ...rest, inputRef: ref };
}
