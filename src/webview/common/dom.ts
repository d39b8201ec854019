// Small DOM helpers. Text only ever goes in through textContent: no string becomes markup.

/** The element with this id in the page's static markup. */
export function byId<T extends HTMLElement = HTMLElement>(id: string): T {
  const element = document.getElementById(id);
  if (!element) throw new Error(`The page has no #${id}`);
  return element as T;
}

/** A new element with a class and, optionally, text. */
export function make<K extends keyof HTMLElementTagNameMap>(tag: K, className: string, text?: string): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  if (className) element.className = className;
  if (text !== undefined) element.textContent = text;
  return element;
}

/** Sets text only when it changed (writing the DOM is what costs while scrolling). */
export function setText(element: HTMLElement, text: string): void {
  if (element.textContent !== text) element.textContent = text;
}

/** "1,234". */
export function count(n: number): string {
  return n.toLocaleString('en-US');
}
