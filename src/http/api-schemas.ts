import { z } from 'zod';
import { namespaceSchema, objectNameSchema } from './validate.js';

/** Schemas shared by several routes' declarations (request targets and common answers). */

export const workloadTarget = z.object({ namespace: namespaceSchema, name: objectNameSchema });
export const nameParams = z.object({ name: objectNameSchema });
export const namespaceQuery = z.object({ namespace: namespaceSchema.optional() });

/** A string map of any shape (objects whose fields the contract does not fix). */
export const anyObject = z.record(z.string(), z.unknown());

/** What a cluster action changed: `{name, namespace?, before, after}`. */
export const changeReport = z.object({ name: z.string(), namespace: z.string().optional(), before: anyObject, after: anyObject });

/** `{items, total}` of a list. */
export function listOf<T extends z.ZodType>(item: T): z.ZodObject<{ items: z.ZodArray<T>; total: z.ZodNumber }> {
  return z.object({ items: z.array(item), total: z.number().int() });
}

/** `{items}` of a list without a total. */
export function itemsOf<T extends z.ZodType>(item: T): z.ZodObject<{ items: z.ZodArray<T> }> {
  return z.object({ items: z.array(item) });
}

/** A resource list item (pods per the contract; other kinds add their own columns). */
export const resourceItem = z
  .object({ name: z.string(), namespace: z.string().optional(), age: z.string().optional() })
  .catchall(z.unknown())
  .meta({ id: 'ResourceItem' });
