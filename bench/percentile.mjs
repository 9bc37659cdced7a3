/** The `p`th percentile of ascending `sorted` by nearest rank (undefined when there are none). */
export const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
