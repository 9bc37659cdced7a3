/**
 * Abstract illustrations for the demo content, drawn as SVG and rasterized by the media module: a
 * brand-palette gradient with one simple geometric motif per item, and initials avatars for authors.
 * No text on the cards, so nothing needs translating or can look like a fake screenshot.
 */

export const PALETTE = { blue: '#2553e0', teal: '#14b8a6', navy: '#172554', sky: '#3b82f6', mint: '#5eead4', indigo: '#1e3a8a' };

export const CARD_WIDTH = 1200;
export const CARD_HEIGHT = 675;
export const AVATAR_SIZE = 192;

export type Motif =
  | 'signal'
  | 'sequence'
  | 'calendar'
  | 'funnel'
  | 'chat'
  | 'stars'
  | 'layers'
  | 'growth'
  | 'pulse'
  | 'orbit'
  | 'network'
  | 'target';

/** Gradient pairs; the variant of an item picks one, so neighbouring cards do not look alike. */
const BACKGROUNDS: [string, string][] = [
  [PALETTE.navy, PALETTE.blue],
  [PALETTE.blue, PALETTE.teal],
  [PALETTE.indigo, PALETTE.teal],
  [PALETTE.navy, PALETTE.sky],
  [PALETTE.blue, PALETTE.navy],
  [PALETTE.navy, PALETTE.teal],
];

const line = (opacity = 0.85, width = 6) =>
  `stroke="#ffffff" stroke-opacity="${opacity}" stroke-width="${width}" fill="none" stroke-linecap="round" stroke-linejoin="round"`;
const LINE = line();
const SOFT_FILL = 'fill="#ffffff" fill-opacity="0.12"';
const ACCENT_FILL = `fill="${PALETTE.mint}" fill-opacity="0.9"`;

const range = (n: number) => Array.from({ length: n }, (_, i) => i);

const motifs: Record<Motif, () => string> = {
  // Waves going out from a source: reaching every new lead at once.
  signal: () =>
    `<circle cx="420" cy="338" r="34" ${ACCENT_FILL}/>` +
    range(4)
      .map((i) => `<path d="M ${500 + i * 90} ${178 - i * 40} A ${170 + i * 90} ${170 + i * 90} 0 0 1 ${500 + i * 90} ${498 + i * 40}" ${line(0.9 - i * 0.18)}/>`)
      .join(''),
  // Steps joined by a path: a nurture sequence.
  sequence: () => {
    const pts = [
      [260, 450],
      [460, 260],
      [660, 420],
      [860, 230],
    ] as const;
    return (
      `<path d="M ${pts.map((p) => p.join(' ')).join(' L ')}" ${LINE} stroke-dasharray="2 22"/>` +
      pts.map(([x, y], i) => `<circle cx="${x}" cy="${y}" r="${i === pts.length - 1 ? 46 : 34}" ${i === pts.length - 1 ? ACCENT_FILL : 'fill="#ffffff" fill-opacity="0.9"'}/>`).join('')
    );
  },
  // A month grid with booked days and one confirmed.
  calendar: () =>
    `<rect x="340" y="150" width="520" height="380" rx="36" ${SOFT_FILL}/>` +
    `<rect x="340" y="150" width="520" height="70" rx="36" fill="#ffffff" fill-opacity="0.22"/>` +
    range(15)
      .map((i) => {
        const x = 380 + (i % 5) * 92;
        const y = 250 + Math.floor(i / 5) * 88;
        const booked = [1, 4, 6, 8, 12].includes(i);
        return `<rect x="${x}" y="${y}" width="70" height="62" rx="14" fill="#ffffff" fill-opacity="${booked ? 0.55 : 0.16}"/>`;
      })
      .join('') +
    `<circle cx="835" cy="505" r="58" ${ACCENT_FILL}/><path d="M 808 505 L 828 526 L 864 486" stroke="${PALETTE.navy}" stroke-width="10" fill="none" stroke-linecap="round" stroke-linejoin="round"/>`,
  // Wide at the top, narrow at the bottom, a few leads falling through.
  funnel: () =>
    range(4)
      .map((i) => {
        const top = 150 + i * 95;
        const half = 300 - i * 62;
        const next = 300 - (i + 1) * 62;
        return `<path d="M ${600 - half} ${top} L ${600 + half} ${top} L ${600 + next} ${top + 80} L ${600 - next} ${top + 80} Z" fill="#ffffff" fill-opacity="${0.14 + i * 0.1}"/>`;
      })
      .join('') +
    range(5)
      .map((i) => `<circle cx="${470 + i * 65}" cy="110" r="14" fill="#fff" fill-opacity="0.8"/>`)
      .join('') +
    `<circle cx="600" cy="580" r="26" ${ACCENT_FILL}/>`,
  // Two speech bubbles: a question and an instant answer.
  chat: () =>
    `<path d="M 300 170 h 380 a 40 40 0 0 1 40 40 v 110 a 40 40 0 0 1 -40 40 h -300 l -60 50 v -50 h -20 a 40 40 0 0 1 -40 -40 v -110 a 40 40 0 0 1 40 -40 z" ${SOFT_FILL} stroke="#fff" stroke-opacity="0.6" stroke-width="4"/>` +
    `<path d="M 520 330 h 360 a 40 40 0 0 1 40 40 v 100 a 40 40 0 0 1 -40 40 h 20 v 50 l -60 -50 h -320 a 40 40 0 0 1 -40 -40 v -100 a 40 40 0 0 1 40 -40 z" fill="#ffffff" fill-opacity="0.9"/>` +
    range(3)
      .map((i) => `<circle cx="${640 + i * 60}" cy="420" r="14" fill="${PALETTE.blue}"/>`)
      .join('') +
    range(3)
      .map((i) => `<rect x="340" y="${215 + i * 36}" width="${300 - i * 80}" height="14" rx="7" fill="#fff" fill-opacity="0.55"/>`)
      .join(''),
  // Five stars, the last one the accent: reviews.
  stars: () =>
    range(5)
      .map((i) => {
        const cx = 290 + i * 155;
        const cy = 320;
        const points = range(10)
          .map((k) => {
            const r = k % 2 === 0 ? 62 : 26;
            const a = (Math.PI / 5) * k - Math.PI / 2;
            return `${(cx + r * Math.cos(a)).toFixed(1)},${(cy + r * Math.sin(a)).toFixed(1)}`;
          })
          .join(' ');
        return `<polygon points="${points}" ${i === 4 ? ACCENT_FILL : 'fill="#ffffff" fill-opacity="0.85"'}/>`;
      })
      .join('') +
    `<rect x="290" y="450" width="620" height="18" rx="9" fill="#fff" fill-opacity="0.25"/><rect x="290" y="450" width="540" height="18" rx="9" fill="#fff" fill-opacity="0.7"/>`,
  // Stacked cards: a bundle of services.
  layers: () =>
    range(3)
      .map((i) => `<rect x="${360 + i * 50}" y="${170 + i * 60}" width="420" height="260" rx="32" fill="#ffffff" fill-opacity="${0.14 + i * 0.2}" stroke="#fff" stroke-opacity="0.5" stroke-width="3"/>`)
      .join('') +
    `<circle cx="820" cy="470" r="40" ${ACCENT_FILL}/>`,
  // Rising bars and a trend line.
  growth: () =>
    range(6)
      .map((i) => `<rect x="${300 + i * 105}" y="${520 - (80 + i * 55)}" width="66" height="${80 + i * 55}" rx="14" fill="#ffffff" fill-opacity="${0.2 + i * 0.1}"/>`)
      .join('') +
    `<path d="M 300 430 L 430 380 L 540 395 L 660 290 L 780 250 L 900 150" ${LINE}/><circle cx="900" cy="150" r="20" ${ACCENT_FILL}/>`,
  // A heartbeat line: clinics.
  pulse: () =>
    `<path d="M 180 360 L 420 360 L 470 250 L 540 480 L 600 200 L 660 420 L 700 360 L 1020 360" ${line(0.85, 9)}/>` +
    `<circle cx="600" cy="200" r="22" ${ACCENT_FILL}/>` +
    `<rect x="180" y="520" width="840" height="8" rx="4" fill="#fff" fill-opacity="0.2"/>`,
  // Planets around a centre: everything connected to one hub.
  orbit: () =>
    `<circle cx="600" cy="338" r="70" ${ACCENT_FILL}/>` +
    [150, 230].map((r) => `<ellipse cx="600" cy="338" rx="${r * 1.6}" ry="${r}" ${line(0.45, 4)}/>`).join('') +
    [
      [360, 338],
      [840, 250],
      [720, 560],
      [420, 140],
    ]
      .map(([x, y], i) => `<circle cx="${x}" cy="${y}" r="${22 + (i % 2) * 10}" fill="#fff" fill-opacity="0.85"/>`)
      .join(''),
  // Nodes and links: integrations.
  network: () => {
    const nodes = [
      [300, 220],
      [520, 160],
      [760, 240],
      [900, 420],
      [640, 500],
      [400, 460],
      [600, 330],
    ] as const;
    const links = [
      [0, 6],
      [1, 6],
      [2, 6],
      [3, 6],
      [4, 6],
      [5, 6],
      [0, 1],
      [2, 3],
      [4, 5],
    ];
    return (
      links.map(([a, b]) => `<line x1="${nodes[a!]![0]}" y1="${nodes[a!]![1]}" x2="${nodes[b!]![0]}" y2="${nodes[b!]![1]}" ${line(0.5, 4)}/>`).join('') +
      nodes.map(([x, y], i) => `<circle cx="${x}" cy="${y}" r="${i === 6 ? 48 : 26}" ${i === 6 ? ACCENT_FILL : 'fill="#ffffff" fill-opacity="0.85"'}/>`).join('')
    );
  },
  // Rings around a centre: qualified leads on target.
  target: () =>
    [220, 160, 100]
      .map((r, i) => `<circle cx="600" cy="338" r="${r}" fill="#ffffff" fill-opacity="${0.1 + i * 0.1}" stroke="#fff" stroke-opacity="0.5" stroke-width="3"/>`)
      .join('') +
    `<circle cx="600" cy="338" r="42" ${ACCENT_FILL}/><path d="M 880 110 L 660 300" ${LINE}/><circle cx="880" cy="110" r="16" fill="#fff"/>`,
};

/** A 1200×675 card illustration. `variant` picks the gradient; the same inputs always give the same SVG. */
export function cardIllustrationSvg(motif: Motif, variant: number): string {
  const [from, to] = BACKGROUNDS[variant % BACKGROUNDS.length]!;
  const angle = (variant * 37) % 90;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${CARD_WIDTH}" height="${CARD_HEIGHT}" viewBox="0 0 ${CARD_WIDTH} ${CARD_HEIGHT}">
<defs>
<linearGradient id="bg" gradientTransform="rotate(${angle} 0.5 0.5)"><stop offset="0" stop-color="${from}"/><stop offset="1" stop-color="${to}"/></linearGradient>
<radialGradient id="glow"><stop offset="0" stop-color="#ffffff" stop-opacity="0.28"/><stop offset="1" stop-color="#ffffff" stop-opacity="0"/></radialGradient>
</defs>
<rect width="100%" height="100%" fill="url(#bg)"/>
<circle cx="${variant % 2 === 0 ? 1020 : 180}" cy="${variant % 3 === 0 ? 110 : 560}" r="420" fill="url(#glow)"/>
<circle cx="${variant % 2 === 0 ? 140 : 1060}" cy="620" r="160" fill="#ffffff" fill-opacity="0.05"/>
${motifs[motif]()}
</svg>`;
}

/** A 192×192 round avatar with the person's initials. */
export function initialsAvatarSvg(name: string, color: string): string {
  const initials = name
    .split(/\s+/)
    .filter(Boolean)
    .map((w) => w[0]!.toUpperCase())
    .slice(0, 2)
    .join('');
  const s = AVATAR_SIZE;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${s}" height="${s}" viewBox="0 0 ${s} ${s}">
<defs><linearGradient id="a" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="${color}"/><stop offset="1" stop-color="${PALETTE.navy}"/></linearGradient></defs>
<circle cx="${s / 2}" cy="${s / 2}" r="${s / 2}" fill="url(#a)"/>
<text x="50%" y="50%" dy="0.35em" text-anchor="middle" font-family="DejaVu Sans, Liberation Sans, Arial, Helvetica, sans-serif" font-weight="700" font-size="${s * 0.4}" fill="#ffffff">${initials}</text>
</svg>`;
}
