/** Up to two initials of a name, for avatars without a picture; words that start with a letter come first. */
export function initials(name: string): string {
  const words = name.trim().split(/\s+/).filter(Boolean);
  const lettered = words.filter((word) => /^\p{L}/u.test(word));
  const parts = lettered.length > 0 ? lettered : words;
  const first = parts[0]?.[0] ?? '';
  const last = parts.length > 1 ? (parts[parts.length - 1]?.[0] ?? '') : '';
  return (first + last).toUpperCase() || '?';
}
