/** Shapes shared by several resources. All objects are loose: unknown fields are kept for raw views. */
import * as z from 'zod/mini';
import { noteLeftOut } from '../parse';

/** The user who made something; the service sends different subsets in different places, or null. */
export const CreatorSchema = z.looseObject({
  id: z.optional(z.union([z.number(), z.string()])),
  email: z.nullish(z.string()),
  display_name: z.nullish(z.string()),
  first_name: z.nullish(z.string()),
  last_name: z.nullish(z.string()),
  is_active: z.optional(z.boolean()),
});
export type Creator = z.infer<typeof CreatorSchema>;

/** A tag object as the live service sends it on base agents (`AgentTag`; `color` a `ColorEnum` name). */
export const TagSchema = z.looseObject({
  id: z.optional(z.union([z.string(), z.number()])),
  name: z.string(),
  color: z.nullish(z.string()),
  created_at: z.nullish(z.string()),
  // The creating user's integer id, or null: not a user object.
  creator: z.nullish(z.number()),
  usage_count: z.nullish(z.number()),
});
export type Tag = z.infer<typeof TagSchema>;

/** One tag; one that cannot be read is left out (and noted for the log): one odd tag never blanks a list. */
const TagItemSchema = z.catch(z.nullable(z.union([z.string(), TagSchema])), (ctx) => {
  noteLeftOut('a tag', ctx.error.issues, ctx.input);
  return null;
});

/** `tags`: the interface says a string; the live service sends tag objects; string arrays occur too. */
export const TagsSchema = z.union([
  z.string(),
  z.pipe(z.array(TagItemSchema), z.transform((tags) => tags.filter((tag): tag is string | Tag => tag !== null))),
]);
export type Tags = z.infer<typeof TagsSchema>;

/** Tag names from any of the three forms (a comma-separated string, names, or tag objects). */
export function tagNames(tags: Tags | null | undefined): string[] {
  if (tags === null || tags === undefined) return [];
  const raw = typeof tags === 'string' ? tags.split(',') : tags.map((tag) => (typeof tag === 'string' ? tag : tag.name));
  return raw.map((name) => name.trim()).filter((name) => name.length > 0);
}

/** The pagination envelope of every list endpoint. */
export function pageEnvelope<T extends z.ZodMiniType>(item: T) {
  return z.looseObject({
    count: z.number(),
    results: z.array(item),
    next: z.nullish(z.string()),
    previous: z.nullish(z.string()),
  });
}

/** A parsed pagination envelope, before its links are reduced to page numbers. */
export interface Envelope<T> {
  count: number;
  results: T[];
  next?: string | null;
  previous?: string | null;
}

/** A field that may be null or left out; left out reads as null, so callers see one empty value. */
export function orNull<T extends z.ZodMiniType>(schema: T) {
  return z._default(z.nullable(schema), null);
}

/** A field of an object the interface leaves free: text is kept, a number becomes its text, anything else reads as null. */
export const freeText = z.optional(
  z.pipe(
    z.unknown(),
    z.transform((value): string | null => (typeof value === 'string' ? value : typeof value === 'number' && Number.isFinite(value) ? String(value) : null)),
  ),
);
