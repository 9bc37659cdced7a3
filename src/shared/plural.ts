/** "1 service", "3 services", "2 SEO entries", "1,200 page views": a count with its noun. */
export const plural = (n: number, one: string, many = `${one}s`) => `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;

/** "2 audit requests", "1 team note", … for each key counted above zero, in the order of `nouns`. */
export function countedLines<K extends string>(counts: Record<K, number>, nouns: Record<K, readonly [one: string, many: string]>): string[] {
  return (Object.keys(nouns) as K[]).filter((k) => counts[k] > 0).map((k) => plural(counts[k], nouns[k][0], nouns[k][1]));
}
