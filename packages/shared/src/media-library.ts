/** The media library of 'bulk media by local path': files under LOCAL_MEDIA_DIR, their types and the answers about them. */
import { z } from 'zod';

/** The media library's file types (checked from the bytes): what WhatsApp sends as photo, video, audio or document. */
export const LOCAL_MEDIA_TYPES = {
  'image/jpeg': 'jpg',
  'image/png': 'png',
  'image/webp': 'webp',
  'image/gif': 'gif',
  'video/mp4': 'mp4',
  'audio/ogg': 'ogg',
  'audio/mpeg': 'mp3',
  'audio/mp4': 'm4a',
  'application/pdf': 'pdf',
} as const;

export const ZLocalMediaFileSchema = z.object({
  /** Relative to LOCAL_MEDIA_DIR, with '/': what `mediaPath` and `/sendMediaZDG`'s `url` take. */
  path: z.string(),
  size: z.number(),
  mediaType: z.enum(['image', 'audio', 'video', 'other']),
  modifiedAt: z.string(),
});
export type TLocalMediaFile = z.infer<typeof ZLocalMediaFileSchema>;

/** Files under LOCAL_MEDIA_DIR the 'media by local path' page offers, and the upload's size limit. */
export const ZLocalMediaListSchema = z.object({ files: z.array(ZLocalMediaFileSchema), maxBytes: z.number() });
export type TLocalMediaList = z.infer<typeof ZLocalMediaListSchema>;

/** One file of the media library, by its path there (delete, preview). */
export const ZLocalMediaPathQuerySchema = z.object({ path: z.string().min(1, 'REQUIRED').max(1_000, 'TOO_LONG') });

/** A voice note recorded in the browser, stored under LOCAL_MEDIA_DIR/recordings: its path there. */
export const ZRecordingSchema = z.object({ path: z.string() });
