/** The emoji picker itself, loaded on first use (see EmojiPickerButton): native emoji, no image downloads. */
import EmojiPicker from 'emoji-picker-react';

export default function EmojiPickerPanel({ onPick, searchPlaceholder }: { onPick: (emoji: string) => void; searchPlaceholder: string }) {
  return (
    <EmojiPicker
      emojiStyle="native"
      lazyLoadEmojis
      skinTonesDisabled
      previewConfig={{ showPreview: false }}
      searchPlaceholder={searchPlaceholder}
      width={320}
      height={380}
      onEmojiClick={(emoji) => onPick(emoji.emoji)}
    />
  );
}
