import { useEffect, type RefObject } from 'react';
import { typingTarget } from '../../shared/table-keys';

/** `/` anywhere on the page (outside text fields) focuses the given field, as in vim, k9s and GitHub. */
export function useSlashFocus(field: RefObject<HTMLInputElement | null>): void {
  useEffect(() => {
    const onKey = (event: KeyboardEvent): void => {
      if (event.key !== '/' || event.ctrlKey || event.metaKey || event.altKey || typingTarget(event.target)) return;
      event.preventDefault();
      field.current?.focus();
      field.current?.select();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [field]);
}
