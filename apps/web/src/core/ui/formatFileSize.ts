/** A file's size as people read it, in the interface's language: '1.2 MB', '1,2 MB', '350 KB', '12 B'. */
export function formatFileSize(bytes: number, language: string): string {
  const units: [number, string][] = [
    [1024 ** 3, 'GB'],
    [1024 ** 2, 'MB'],
    [1024, 'KB'],
  ];
  for (const [size, unit] of units) {
    if (bytes >= size) return `${new Intl.NumberFormat(language, { maximumFractionDigits: 1 }).format(bytes / size)} ${unit}`;
  }
  return `${bytes} B`;
}
