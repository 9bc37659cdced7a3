/** Field messages of one list's items by index ("benefits.2" → 2), for StringListField's `errors`. */
export function itemErrors(errors: Record<string, string>, field: string): Record<number, string> {
  return Object.fromEntries(
    Object.entries(errors).flatMap(([path, message]) => {
      const [name, index, ...rest] = path.split('.');
      return name === field && index !== undefined && /^\d+$/.test(index) && rest.length === 0 ? [[Number(index), message]] : [];
    }),
  );
}
