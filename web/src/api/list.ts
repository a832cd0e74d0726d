/** The `{items, total}` envelope of the API's lists (each list's item type comes from ./types, generated). */
export interface ListResponse<T> {
  items: T[];
  total: number;
}
