// Which item of a catalogue list has its dialog open, and what the list last said was saved.
import { useState } from 'react';

/** The item in the dialog ('new': one being added; null: no dialog) and the last saved line. */
export function useEditing<T>() {
  const [open, setOpen] = useState<T | 'new' | null>(null);
  const [saved, setSaved] = useState<string | null>(null);
  const begin = (item: T | 'new') => {
    setSaved(null);
    setOpen(item);
  };
  return {
    open,
    saved,
    add: () => begin('new'),
    edit: (item: T) => begin(item),
    /** The dialog closed: with what to announce when something was saved. */
    closed: (announce: string | null) => {
      setOpen(null);
      if (announce !== null) setSaved(announce);
    },
  };
}
