// Every element the job page makes goes through `el`, so the page can tell its own elements from any
// that data might have smuggled in (the render report counts those; there should never be any).
import { make } from '../common/dom';

const made = new WeakSet<Element>();
const staticMarkup = new WeakSet<Element>(document.querySelectorAll('*'));

/** A new element of the page, with a class and optionally text (always as textContent). */
export function el<K extends keyof HTMLElementTagNameMap>(tag: K, className: string, text?: string): HTMLElementTagNameMap[K] {
  const element = make(tag, className, text);
  made.add(element);
  return element;
}

/** Elements in the page that are neither its static markup nor made by its script. */
export function foreignElements(): number {
  let count = 0;
  for (const element of document.querySelectorAll('*')) if (!made.has(element) && !staticMarkup.has(element)) count++;
  return count;
}
