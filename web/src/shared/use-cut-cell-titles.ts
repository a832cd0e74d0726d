import { useEffect, type RefObject } from 'react';

/** True when a cell's content (or that of an element directly in it, such as a sort button) is wider than it shows. */
function isCut(cell: HTMLElement): boolean {
  const cut = (element: Element): boolean => element.scrollWidth > element.clientWidth + 1;
  return cut(cell) || [...cell.children].some((child) => child.clientWidth > 0 && cut(child));
}

/** Gives a cut cell its full text as a title and a tab stop (hover or focus names it); takes both back when it fits again. */
function markCell(cell: HTMLElement): void {
  if (isCut(cell)) {
    const text = (cell.textContent ?? '').trim();
    if (cell.title !== text) cell.title = text;
    if (cell.tabIndex < 0) cell.tabIndex = 0;
    cell.dataset.cut = 'true';
  } else if (cell.dataset.cut) {
    cell.removeAttribute('title');
    cell.removeAttribute('tabindex');
    delete cell.dataset.cut;
  }
}

/**
 * Every table of the web UI: a cell whose text does not fit is cut with an ellipsis (CSS), and this
 * names the full value on hover (title) and makes the cell focusable, so a keyboard reaches it too.
 * Runs after each change of the rows (virtual tables render rows as they scroll) and each resize,
 * at most once a frame.
 */
export function useCutCellTitles(container: RefObject<HTMLElement | null>): void {
  useEffect(() => {
    const element = container.current;
    if (!element) return;
    let frame = 0;
    const mark = (): void => {
      frame = 0;
      element.querySelectorAll<HTMLElement>('td, th').forEach(markCell);
    };
    const schedule = (): void => {
      if (!frame) frame = requestAnimationFrame(mark);
    };
    const mutations = new MutationObserver(schedule);
    mutations.observe(element, { childList: true, subtree: true, characterData: true });
    const resize = new ResizeObserver(schedule);
    resize.observe(element);
    schedule();
    return () => {
      cancelAnimationFrame(frame);
      mutations.disconnect();
      resize.disconnect();
    };
  }, [container]);
}
