/** "1 service", "3 services", "2 SEO entries": a count with its noun. */
export const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;
