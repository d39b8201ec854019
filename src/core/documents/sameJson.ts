/** True when two JSON values are the same, whatever the order of object keys (an edit that only moved or reformatted things). */
export function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) || Array.isArray(b)) return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((x, i) => sameJson(x, b[i]));
  const left = a as Record<string, unknown>;
  const right = b as Record<string, unknown>;
  const keys = Object.keys(left);
  return keys.length === Object.keys(right).length && keys.every((k) => Object.hasOwn(right, k) && sameJson(left[k], right[k]));
}

/**
 * True when two policy contents say the same, whatever the ids of their categories, rules and sub-rules:
 * the service makes those anew on every save and ignores those sent, so a changed id is never an edit.
 */
export function samePolicyContent(a: unknown, b: unknown): boolean {
  return sameJson(withoutGuidelineIds(a), withoutGuidelineIds(b));
}

function withoutGuidelineIds(content: unknown): unknown {
  if (!isObject(content) || !isObject(content.guidelines) || !Array.isArray(content.guidelines.categories)) return content;
  const categories = content.guidelines.categories.map((category) => withoutIds(category, 'rules'));
  return { ...content, guidelines: { ...content.guidelines, categories } };
}

/** The item without its `id`, and the same for the items of its list under `key` (rules, then sub-rules, as deep as they go). */
function withoutIds(item: unknown, key: 'rules' | 'sub_rules'): unknown {
  if (!isObject(item)) return item;
  // Spread copies `__proto__` as a plain key, so content with such keys is compared as data.
  const copy: Record<string, unknown> = { ...item };
  delete copy.id;
  const list = copy[key];
  if (Array.isArray(list)) copy[key] = list.map((rule) => withoutIds(rule, 'sub_rules'));
  return copy;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
