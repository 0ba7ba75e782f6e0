/**
 * The files picked, pasted or dropped into the chat's input: they wait in the attachments preview
 * until Send. A file added while the last message is still being sent is kept (the preview's Send
 * waits for that send), not dropped unseen; one added while the preview's own files are on their
 * way stays for the next Send.
 */
import { useState, type ChangeEvent, type ClipboardEvent, type DragEvent } from 'react';
import { LIMITS } from '@zapdesk/shared/domain';

export function usePendingFiles(enabled: boolean) {
  const [files, setFiles] = useState<File[]>([]);
  // Each send from the preview ends its round: what is left opens afresh, without the sent caption.
  const [round, setRound] = useState(0);

  const add = (added: File[]) => {
    if (added.length === 0 || !enabled) return;
    setFiles((current) => [...current, ...added].slice(0, LIMITS.filesPerMessage));
  };

  return {
    files,
    round,
    remove: (index: number) => setFiles((current) => current.filter((_, i) => i !== index)),
    clear: () => setFiles([]),
    /** The files of a send that left: they leave the preview, anything added since stays. */
    sent: (gone: File[]) => {
      setFiles((current) => current.filter((file) => !gone.includes(file)));
      setRound((value) => value + 1);
    },
    pick: (event: ChangeEvent<HTMLInputElement>) => {
      add(Array.from(event.target.files ?? []));
      event.target.value = '';
    },
    paste: (event: ClipboardEvent<HTMLElement>) => {
      const pasted = Array.from(event.clipboardData.files);
      if (pasted.length === 0) return;
      event.preventDefault();
      add(pasted);
    },
    drop: (event: DragEvent<HTMLElement>) => {
      if (!event.dataTransfer.types.includes('Files')) return;
      event.preventDefault();
      add(Array.from(event.dataTransfer.files));
    },
  };
}
