/** "1 service", "3 services", "2 SEO entries", "1,200 page views": a count with its noun. */
export const plural = (n: number, one: string, many = `${one}s`) => `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;
