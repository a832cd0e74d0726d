import { useEffect, useRef, type DialogHTMLAttributes, type ReactNode } from 'react';

type ModalProps = { labelledBy: string; onCancel: () => void; children: ReactNode } & Omit<DialogHTMLAttributes<HTMLDialogElement>, 'onCancel' | 'children'>;

/** A modal dialog (native <dialog>, shown modal while mounted: focus trap and Escape come with it); Escape calls `onCancel`. */
export function Modal({ labelledBy, onCancel, children, ...rest }: ModalProps): ReactNode {
  const dialog = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const element = dialog.current;
    if (element && !element.open) element.showModal();
    return () => element?.close();
  }, []);
  return (
    <dialog
      {...rest}
      ref={dialog}
      className="dialog"
      aria-labelledby={labelledBy}
      onCancel={(event) => {
        event.preventDefault();
        onCancel();
      }}
    >
      {children}
    </dialog>
  );
}
