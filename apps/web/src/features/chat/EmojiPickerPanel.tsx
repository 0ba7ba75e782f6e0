/**
 * The emoji picker itself, loaded on first use (see EmojiPickerButton): native emoji, no image
 * downloads. Its categories and search follow the interface's language (the picker's own
 * Portuguese and Spanish datasets, loaded with it), and its texts come from our translations.
 */
import EmojiPicker, { type EmojiClickData, type EmojiDataLoader } from 'emoji-picker-react';
import { useTranslation } from 'react-i18next';
import type { Language } from '../../i18n/i18n';

const DATASETS: Record<Language, EmojiDataLoader | undefined> = {
  en: undefined,
  pt: () => import('emoji-picker-react/data/emojis-pt'),
  es: () => import('emoji-picker-react/data/emojis-es'),
};

export default function EmojiPickerPanel({ onPick, language }: { onPick: (emoji: string) => void; language: Language }) {
  const { t } = useTranslation();
  const dataset = DATASETS[language];
  return (
    <EmojiPicker
      key={language}
      emojiStyle="native"
      lazyLoadEmojis
      skinTonesDisabled
      previewConfig={{ showPreview: false }}
      {...(dataset ? { emojiData: dataset } : {})}
      labels={{
        searchPlaceholder: t('emoji.search'),
        searchLabel: t('emoji.searchLabel'),
        searchClear: t('emoji.clear'),
        searchResultsNone: t('emoji.none'),
        searchResultsOne: t('emoji.one'),
        searchResultsMany: t('emoji.many'),
        categoryNavigation: t('emoji.categories'),
        loading: t('emoji.loading'),
        loadingError: t('emoji.loadingError'),
        retryLoading: t('emoji.retry'),
      }}
      width={320}
      height={380}
      onEmojiClick={(emoji: EmojiClickData) => onPick(emoji.emoji)}
    />
  );
}
