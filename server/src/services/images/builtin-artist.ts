// Over 300 lines on purpose: most of it is the drawing itself (shapes, palettes, motifs), data with no logic
// worth a module of its own.
// The offline fallback for GenerateImage: hand-composed vector art, seeded by the prompt so it is reproducible.
export interface DrawnImage {
  contentType: 'image/svg+xml';
  bytes: Buffer;
}

type Random = () => number;
type Point = readonly [number, number];
/** One cubic segment of a right-hand outline: two control points, then the end point. */
type Segment = readonly [Point, Point, Point];

const SIZE = 960;
const CENTER = SIZE / 2;
const ROYAL_WORDS = /queen|crown|royal|regal|princess|empress|monarch|throne/i;
const TITLE_LIMIT = 200;

/** drawImage renders an original image for prompt, identical for identical prompts. */
export function drawImage(prompt: string): DrawnImage {
  const random = createRandom(hashText(prompt));
  const body = ROYAL_WORDS.test(prompt) ? drawQueen(random) : drawAbstract(prompt, random);
  return { contentType: 'image/svg+xml', bytes: Buffer.from(wrapSvg(prompt, body), 'utf8') };
}

function escapeXml(text: string): string {
  return stripNonXmlChars(text)
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');
}

function stripNonXmlChars(text: string): string {
  // XML 1.0 forbids control characters and lone surrogates outright, so escaping alone would still break the document.
  let kept = '';
  for (const char of text) {
    const code = char.codePointAt(0) ?? 0;
    const allowed =
      code === 0x9 ||
      code === 0xa ||
      code === 0xd ||
      (code >= 0x20 && code <= 0xd7ff) ||
      (code >= 0xe000 && code <= 0xfffd) ||
      code >= 0x10000;
    if (allowed) kept += char;
  }
  return kept;
}

function wrapSvg(prompt: string, body: string): string {
  const title = escapeXml(truncate(prompt.trim() || 'Untitled artwork', TITLE_LIMIT));
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${SIZE} ${SIZE}" width="${SIZE}" height="${SIZE}" ` +
    `role="img"><title>${title}</title>${body}</svg>`
  );
}

function truncate(text: string, limit: number): string {
  const chars = [...text];
  return chars.length > limit ? `${chars.slice(0, limit - 1).join('')}…` : text;
}

// ---------------------------------------------------------------------------------------------------------
// Randomness and geometry helpers

function hashText(text: string): number {
  // FNV-1a over UTF-16 code units: tiny, stable across platforms, good enough to seed art.
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i += 1) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

function createRandom(seed: number): Random {
  // mulberry32: a small, well-distributed PRNG whose whole state is one 32-bit integer.
  let state = seed || 0x9e3779b9;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function between(random: Random, min: number, max: number): number {
  return min + random() * (max - min);
}

function pick<T>(random: Random, items: readonly T[]): T {
  return items[Math.floor(random() * items.length) % items.length] as T;
}

function fmt(value: number): string {
  return String(Math.round(value * 10) / 10);
}

function pt([x, y]: Point): string {
  return `${fmt(x)} ${fmt(y)}`;
}

function mirror([x, y]: Point): Point {
  return [SIZE - x, y];
}

/** Closes a left-right symmetric outline from its right half, drawn top-centre to bottom-centre. */
function symmetricPath(start: Point, right: readonly Segment[]): string {
  let d = `M${pt(start)}`;
  for (const [c1, c2, end] of right) d += `C${pt(c1)} ${pt(c2)} ${pt(end)}`;
  const ends = [start, ...right.map((segment) => segment[2])];
  for (let i = right.length - 1; i >= 0; i -= 1) {
    const [c1, c2] = right[i] as Segment;
    d += `C${pt(mirror(c2))} ${pt(mirror(c1))} ${pt(mirror(ends[i] as Point))}`;
  }
  return `${d}Z`;
}

/** Draws a right-side shape and its mirror image with the same attributes. */
function mirrored(d: string, attrs: string): string {
  return `<path d="${d}" ${attrs}/><path d="${d}" ${attrs} transform="matrix(-1 0 0 1 ${SIZE} 0)"/>`;
}

function sparkle(x: number, y: number, size: number, color: string, opacity: number): string {
  const s = size;
  const w = size * 0.22;
  const d =
    `M${fmt(x)} ${fmt(y - s)}Q${fmt(x + w)} ${fmt(y - w)} ${fmt(x + s)} ${fmt(y)}` +
    `Q${fmt(x + w)} ${fmt(y + w)} ${fmt(x)} ${fmt(y + s)}Q${fmt(x - w)} ${fmt(y + w)} ${fmt(x - s)} ${fmt(y)}` +
    `Q${fmt(x - w)} ${fmt(y - w)} ${fmt(x)} ${fmt(y - s)}Z`;
  return `<path d="${d}" fill="${color}" opacity="${fmt(opacity)}"/>`;
}

function hslToHex(hue: number, saturation: number, lightness: number): string {
  const h = (((hue % 360) + 360) % 360) / 360;
  const s = saturation / 100;
  const l = lightness / 100;
  const channel = (offset: number): string => {
    const k = (offset + h * 12) % 12;
    const value = l - s * Math.min(l, 1 - l) * Math.max(-1, Math.min(k - 3, 9 - k, 1));
    return Math.round(value * 255)
      .toString(16)
      .padStart(2, '0');
  };
  return `#${channel(0)}${channel(8)}${channel(4)}`;
}

// ---------------------------------------------------------------------------------------------------------
// The queen

const QUEEN_DEFS =
  '<defs>' +
  '<radialGradient id="bg" cx="50%" cy="40%" r="75%"><stop offset="0" stop-color="#3d1a78"/>' +
  '<stop offset=".45" stop-color="#1a0b2e"/><stop offset="1" stop-color="#0b0614"/></radialGradient>' +
  '<radialGradient id="halo"><stop offset="0" stop-color="#ffe08a" stop-opacity=".85"/>' +
  '<stop offset=".4" stop-color="#f5c542" stop-opacity=".28"/><stop offset="1" stop-color="#9945ff" stop-opacity="0"/></radialGradient>' +
  '<linearGradient id="gold" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#ffe08a"/>' +
  '<stop offset=".5" stop-color="#f5c542"/><stop offset="1" stop-color="#b8860b"/></linearGradient>' +
  '<linearGradient id="goldSide" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#ffe08a"/>' +
  '<stop offset=".55" stop-color="#d4a017"/><stop offset="1" stop-color="#8a6209"/></linearGradient>' +
  '<linearGradient id="sol" x1="0" y1="1" x2="1" y2="0"><stop offset="0" stop-color="#9945ff"/>' +
  '<stop offset="1" stop-color="#14f195"/></linearGradient>' +
  '<linearGradient id="armor" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#5b25b0"/>' +
  '<stop offset=".55" stop-color="#2d1155"/><stop offset="1" stop-color="#1a0b2e"/></linearGradient>' +
  '<linearGradient id="plate" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#7b3fe0"/>' +
  '<stop offset=".6" stop-color="#3f1a80"/><stop offset="1" stop-color="#241046"/></linearGradient>' +
  '<linearGradient id="skin" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#f8d9bf"/>' +
  '<stop offset="1" stop-color="#eab592"/></linearGradient>' +
  '<linearGradient id="hair" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#4a1f8c"/>' +
  '<stop offset=".6" stop-color="#2a0f52"/><stop offset="1" stop-color="#160829"/></linearGradient>' +
  '<linearGradient id="lips" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#c2367e"/>' +
  '<stop offset="1" stop-color="#8e1f5c"/></linearGradient>' +
  '<filter id="glow" x="-20%" y="-20%" width="140%" height="140%"><feGaussianBlur stdDeviation="7"/></filter>' +
  '</defs>';

function drawQueen(random: Random): string {
  const iris = pick(random, ['#9945ff', '#14f195', '#00c2ff']);
  const gem = pick(random, ['#14f195', '#00c2ff', '#ff4fa3']);
  return [
    QUEEN_DEFS,
    queenBackground(random),
    queenBackHair(),
    rimLight(HAIR_RIM, 4),
    queenNeck(),
    queenArmour(),
    rimLight(SHOULDER_RIM, 4),
    queenFace(iris),
    queenFrontHair(),
    queenJewellery(),
    queenCrown(gem),
  ].join('');
}

const HAIR_RIM = 'M560 232C616 250 642 310 646 400C652 500 630 560 668 640C700 705 690 770 640 800';
const SHOULDER_RIM = 'M640 618C700 596 774 620 792 690C806 730 802 770 796 842L794 896';

function queenBackground(random: Random): string {
  let sparkles = '';
  for (let placed = 0, tries = 0; placed < 14 && tries < 200; tries += 1) {
    const x = between(random, 40, SIZE - 40);
    const y = between(random, 40, 700);
    // Keep sparkles off the figure so none is half-hidden behind the head or the pauldrons.
    if (Math.hypot(x - CENTER, y - 380) < 330 || (y > 540 && Math.abs(x - CENTER) < 350)) continue;
    const color = pick(random, ['#ffe08a', '#ffffff', '#14f195', '#c9a7ff']);
    sparkles += sparkle(x, y, between(random, 5, 16), color, between(random, 0.55, 0.95));
    placed += 1;
  }
  let dust = '';
  for (let i = 0; i < 26; i += 1) {
    const x = between(random, 20, SIZE - 20);
    const y = between(random, 20, SIZE - 20);
    dust += `<circle cx="${fmt(x)}" cy="${fmt(y)}" r="${fmt(between(random, 1, 2.6))}" fill="#ffe08a" opacity="${fmt(between(random, 0.2, 0.6))}"/>`;
  }
  return (
    `<rect width="${SIZE}" height="${SIZE}" fill="url(#bg)"/>` +
    `<circle cx="${CENTER}" cy="330" r="380" fill="url(#halo)"/>` +
    `<circle cx="${CENTER}" cy="360" r="270" fill="none" stroke="#f5c542" stroke-opacity=".35" stroke-width="2"/>` +
    `<circle cx="${CENTER}" cy="360" r="292" fill="none" stroke="#ffe08a" stroke-opacity=".15" stroke-width="1.5" stroke-dasharray="2 10"/>` +
    dust +
    sparkles
  );
}

function queenBackHair(): string {
  const outline = symmetricPath(
    [480, 228],
    [
      [
        [570, 226],
        [640, 290],
        [646, 400],
      ],
      [
        [652, 500],
        [630, 560],
        [668, 640],
      ],
      [
        [700, 705],
        [690, 770],
        [640, 800],
      ],
      [
        [600, 770],
        [560, 700],
        [480, 690],
      ],
    ],
  );
  const strand =
    'M590 300C640 360 626 470 620 540C614 610 650 660 662 720' +
    'M565 320C600 400 592 480 590 560C588 620 610 670 620 720';
  return (
    `<path d="${outline}" fill="url(#hair)"/>` +
    mirrored(strand, 'fill="none" stroke="#7b3fe0" stroke-width="5" stroke-linecap="round" opacity=".55"')
  );
}

function queenNeck(): string {
  const neck = 'M438 480L436 600Q480 640 524 600L522 480Z';
  return (
    `<path d="${neck}" fill="url(#skin)"/>` +
    `<path d="M438 505Q480 560 522 505L522 540Q480 590 438 540Z" fill="#c98b6c" opacity=".45"/>`
  );
}

function queenArmour(): string {
  const torso = symmetricPath(
    [480, 600],
    [
      [
        [540, 600],
        [600, 606],
        [650, 640],
      ],
      [
        [740, 690],
        [760, 800],
        [770, 960],
      ],
      [
        [700, 960],
        [560, 960],
        [480, 960],
      ],
    ],
  );
  const breastplate = symmetricPath(
    [480, 672],
    [
      [
        [520, 640],
        [570, 640],
        [612, 656],
      ],
      [
        [640, 760],
        [630, 880],
        [600, 960],
      ],
      [
        [560, 960],
        [520, 960],
        [480, 960],
      ],
    ],
  );
  const gorget = symmetricPath(
    [480, 640],
    [
      [
        [510, 640],
        [530, 620],
        [530, 590],
      ],
      [
        [560, 600],
        [590, 615],
        [612, 640],
      ],
      [
        [570, 660],
        [520, 690],
        [480, 712],
      ],
    ],
  );
  return (
    `<path d="${torso}" fill="url(#armor)"/>` +
    `<path d="${breastplate}" fill="url(#plate)" stroke="url(#gold)" stroke-width="6"/>` +
    `<path d="M480 712L480 960" stroke="#ffe08a" stroke-opacity=".25" stroke-width="3"/>` +
    `<path d="${gorget}" fill="url(#goldSide)" stroke="#8a6209" stroke-width="2"/>` +
    `<path d="M436 600Q480 650 524 600" fill="none" stroke="#ffe08a" stroke-width="3"/>` +
    `<circle cx="480" cy="676" r="11" fill="#14f195" stroke="#ffe08a" stroke-width="3"/>` +
    solanaMark(480, 812, 170) +
    queenPauldron()
  );
}

function queenPauldron(): string {
  const dome = 'M596 648C650 598 762 606 792 690C806 730 802 770 794 792C744 758 684 744 616 752Z';
  const lames = [
    'M620 752C690 744 752 766 794 796L796 842C754 810 690 794 630 800Z',
    'M632 800C692 796 752 816 796 846L794 896C752 862 694 846 640 850Z',
  ];
  const plate = 'fill="url(#plate)" stroke="url(#gold)" stroke-linejoin="round"';
  return (
    lames
      .slice()
      .reverse()
      .map((d) => mirrored(d, `${plate} stroke-width="5"`))
      .join('') +
    mirrored(dome, `${plate} stroke-width="7"`) +
    mirrored(
      'M640 648C690 626 744 634 770 674',
      'fill="none" stroke="#b78cff" stroke-width="6" stroke-linecap="round" opacity=".55"',
    ) +
    mirrored('M716 700a9 9 0 1 0 0.1 0Z', 'fill="#14f195" stroke="#ffe08a" stroke-width="3"')
  );
}

function solanaMark(cx: number, cy: number, width: number): string {
  const barHeight = width * 0.17;
  const gap = width * 0.11;
  const slant = width * 0.2;
  let bars = '';
  for (let i = -1; i <= 1; i += 1) {
    const top = cy + i * (barHeight + gap) - barHeight / 2;
    // The middle bar leans the other way, as in the Solana logo.
    const lean = i === 0 ? -slant : slant;
    const left = cx - width / 2;
    const right = cx + width / 2;
    const d =
      lean > 0
        ? `M${fmt(left + lean)} ${fmt(top)}H${fmt(right)}L${fmt(right - lean)} ${fmt(top + barHeight)}H${fmt(left)}Z`
        : `M${fmt(left)} ${fmt(top)}H${fmt(right + lean)}L${fmt(right)} ${fmt(top + barHeight)}H${fmt(left - lean)}Z`;
    bars += `<path d="${d}"/>`;
  }
  return (
    `<g fill="url(#sol)" filter="url(#glow)" opacity=".8">${bars}</g>` +
    `<g fill="url(#sol)" stroke="#ffe08a" stroke-width="1.5">${bars}</g>`
  );
}

function queenFace(iris: string): string {
  const face = symmetricPath(
    [480, 284],
    [
      [
        [548, 284],
        [584, 336],
        [584, 400],
      ],
      [
        [584, 458],
        [560, 500],
        [522, 522],
      ],
      [
        [504, 532],
        [492, 536],
        [480, 536],
      ],
    ],
  );
  const lid = 'M510 412Q540 384 574 402Q548 424 510 412Z';
  const lash = 'M506 414Q540 380 578 398L590 390Q582 402 576 408Q540 392 508 418Z';
  const brow = 'M508 370Q544 344 584 360Q544 354 508 375Z';
  const shadow = 'M506 404Q540 368 580 392Q544 378 506 404Z';
  return (
    `<path d="${face}" fill="url(#skin)"/>` +
    mirrored(shadow, 'fill="#9945ff" opacity=".35"') +
    mirrored(lid, 'fill="#fff6ee"') +
    `<circle cx="542" cy="404" r="12" fill="${iris}"/><circle cx="418" cy="404" r="12" fill="${iris}"/>` +
    `<circle cx="542" cy="404" r="5" fill="#1a0b2e"/><circle cx="418" cy="404" r="5" fill="#1a0b2e"/>` +
    `<circle cx="546" cy="400" r="3" fill="#fff"/><circle cx="422" cy="400" r="3" fill="#fff"/>` +
    mirrored(lash, 'fill="#1a0b2e"') +
    mirrored(brow, 'fill="#3a1670"') +
    mirrored('M528 462a22 11 0 1 0 0.1 0Z', 'fill="#ff6fa0" opacity=".16"') +
    `<path d="M487 432Q494 452 484 462" fill="none" stroke="#cf9274" stroke-width="2.5" stroke-linecap="round"/>` +
    `<path d="M470 462Q476 466 482 463" fill="none" stroke="#cf9274" stroke-width="2" stroke-linecap="round"/>` +
    `<path d="M452 492Q466 480 480 488Q494 480 508 492Q494 498 480 497Q466 498 452 492Z" fill="url(#lips)"/>` +
    `<path d="M452 492Q480 500 508 492Q496 516 480 516Q464 516 452 492Z" fill="#c2367e"/>` +
    `<ellipse cx="486" cy="505" rx="8" ry="3" fill="#ffc2da" opacity=".6"/>`
  );
}

function queenFrontHair(): string {
  // The small notch at the top centre reads as a parting, which is what makes the shape read as hair.
  const right =
    'M478 250C560 240 630 300 632 410C634 470 620 520 600 560C604 500 598 450 584 404C570 350 530 316 490 316L480 300Z';
  const strands = 'M488 300C540 300 590 340 606 420M500 286C560 284 614 330 620 420';
  return (
    mirrored(right, 'fill="url(#hair)"') +
    mirrored(strands, 'fill="none" stroke="#8a55ea" stroke-width="4" stroke-linecap="round" opacity=".6"')
  );
}

function queenJewellery(): string {
  const earring =
    '<circle cx="594" cy="468" r="6" fill="url(#gold)"/>' +
    '<path d="M594 476Q604 492 594 506Q584 492 594 476Z" fill="#14f195" stroke="#ffe08a" stroke-width="2"/>';
  return (
    earring +
    `<g transform="matrix(-1 0 0 1 ${SIZE} 0)">${earring}</g>` +
    '<path d="M440 566Q480 592 520 566" fill="none" stroke="url(#gold)" stroke-width="5" stroke-linecap="round"/>' +
    '<path d="M480 580L489 592L480 606L471 592Z" fill="#9945ff" stroke="#ffe08a" stroke-width="2"/>'
  );
}

function queenCrown(gem: string): string {
  const crown =
    'M386 282L366 178L420 222L428 142L456 204L480 100L504 204L532 142L540 222L594 178L574 282Q480 300 386 282Z';
  const band = 'M384 250Q480 268 576 250L574 284Q480 302 386 284Z';
  const tips: Point[] = [
    [366, 178],
    [428, 142],
    [480, 100],
    [532, 142],
    [594, 178],
  ];
  const orbs = tips
    .map(
      ([x, y]) => `<circle cx="${x}" cy="${y}" r="9" fill="url(#gold)" stroke="#8a6209" stroke-width="1.5"/>`,
    )
    .join('');
  const bandGems =
    `<path d="M480 248L494 268L480 288L466 268Z" fill="${gem}" stroke="#ffe08a" stroke-width="2"/>` +
    mirrored('M528 266a9 9 0 1 0 0.1 0Z', 'fill="#9945ff" stroke="#ffe08a" stroke-width="2"') +
    mirrored('M560 260a6 6 0 1 0 0.1 0Z', 'fill="#ff4fa3" stroke="#ffe08a" stroke-width="1.5"');
  return (
    `<path d="${crown}" fill="#f5c542" filter="url(#glow)" opacity=".6"/>` +
    `<path d="${crown}" fill="url(#gold)" stroke="#8a6209" stroke-width="2" stroke-linejoin="round"/>` +
    `<path d="${band}" fill="url(#goldSide)" stroke="#8a6209" stroke-width="2"/>` +
    `<path d="M392 254Q480 270 568 254" fill="none" stroke="#fff4c7" stroke-width="3" stroke-linecap="round" opacity=".8"/>` +
    `<path d="M378 196L392 262M436 170L444 232" stroke="#fff4c7" stroke-width="3" stroke-linecap="round" opacity=".55"/>` +
    orbs +
    `<path d="M480 132L490 182L480 222L470 182Z" fill="${gem}" stroke="#ffe08a" stroke-width="2"/>` +
    bandGems
  );
}

/** Neon rim light: Solana purple from the left, Solana green from the right, glowing over a crisp core. */
function rimLight(right: string, width: number): string {
  const stroke = (color: string): string =>
    `<path d="${right}" fill="none" stroke="${color}" stroke-width="${width}" stroke-linecap="round"/>`;
  const lights = stroke('#14f195') + `<g transform="matrix(-1 0 0 1 ${SIZE} 0)">${stroke('#9945ff')}</g>`;
  return `<g filter="url(#glow)">${lights}</g><g opacity=".85">${lights}</g>`;
}

// ---------------------------------------------------------------------------------------------------------
// Abstract compositions for every other prompt

interface Palette {
  deep: string;
  mid: string;
  light: string;
  accent: string;
  glow: string;
}

function createPalette(random: Random): Palette {
  const hue = between(random, 0, 360);
  const accentHue = hue + pick(random, [150, 180, 210]);
  return {
    deep: hslToHex(hue, 55, 8),
    mid: hslToHex(hue + 20, 60, 26),
    light: hslToHex(hue - 15, 70, 58),
    accent: hslToHex(accentHue, 85, 60),
    glow: hslToHex(hue + 40, 95, 78),
  };
}

function drawAbstract(prompt: string, random: Random): string {
  const palette = createPalette(random);
  return [
    abstractDefs(palette),
    `<rect width="${SIZE}" height="${SIZE}" fill="url(#bg)"/>`,
    abstractOrbs(random),
    abstractWaves(random, palette),
    abstractSparkles(random, palette),
    motifFor(prompt, palette),
  ].join('');
}

function abstractDefs(palette: Palette): string {
  return (
    '<defs>' +
    `<linearGradient id="bg" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="${palette.mid}"/>` +
    `<stop offset="1" stop-color="${palette.deep}"/></linearGradient>` +
    `<radialGradient id="orb" cx="35%" cy="30%"><stop offset="0" stop-color="${palette.glow}"/>` +
    `<stop offset=".5" stop-color="${palette.light}"/><stop offset="1" stop-color="${palette.mid}" stop-opacity="0"/></radialGradient>` +
    '<filter id="glow" x="-30%" y="-30%" width="160%" height="160%"><feGaussianBlur stdDeviation="10"/></filter>' +
    '</defs>'
  );
}

function abstractOrbs(random: Random): string {
  let orbs = '';
  const count = 2 + Math.floor(random() * 3);
  for (let i = 0; i < count; i += 1) {
    const r = between(random, 90, 260);
    const x = between(random, r * 0.4, SIZE - r * 0.4);
    const y = between(random, r * 0.4, SIZE * 0.7);
    orbs += `<circle cx="${fmt(x)}" cy="${fmt(y)}" r="${fmt(r)}" fill="url(#orb)" opacity="${fmt(between(random, 0.35, 0.8))}"/>`;
  }
  return orbs;
}

function abstractWaves(random: Random, palette: Palette): string {
  // Back layers are lighter so the hills recede, like atmospheric perspective.
  const colors = [palette.light, palette.accent, palette.mid, palette.deep];
  let waves = '';
  for (let i = 0; i < colors.length; i += 1) {
    const base = 640 + i * 75;
    const amp = between(random, 25, 60);
    const phase = between(random, 0, 200);
    const d =
      `M0 ${fmt(base)}C${fmt(200 + phase)} ${fmt(base - amp)} ${fmt(520 - phase / 2)} ${fmt(base + amp)} ${SIZE} ${fmt(base - amp / 2)}` +
      `V${SIZE}H0Z`;
    waves += `<path d="${d}" fill="${colors[i] ?? palette.deep}" opacity="${fmt(0.35 + i * 0.2)}"/>`;
  }
  return waves;
}

function abstractSparkles(random: Random, palette: Palette): string {
  let out = '';
  for (let i = 0; i < 12; i += 1) {
    out += sparkle(
      between(random, 40, SIZE - 40),
      between(random, 40, 560),
      between(random, 4, 14),
      pick(random, [palette.glow, '#ffffff', palette.accent]),
      between(random, 0.5, 0.95),
    );
  }
  return out;
}

function motifFor(prompt: string, palette: Palette): string {
  if (/\bmoon|lunar/i.test(prompt)) return moonMotif(palette);
  if (/\bsun|solar|sunset|sunrise/i.test(prompt)) return sunMotif(palette);
  if (/\bcat|kitten|kitty/i.test(prompt)) return catMotif(palette);
  return planetMotif(palette);
}

function moonMotif(palette: Palette): string {
  const d = 'M530 200A210 210 0 1 0 530 620A150 210 0 1 1 530 200Z';
  return (
    `<path d="${d}" fill="${palette.glow}" filter="url(#glow)" opacity=".7"/>` +
    `<path d="${d}" fill="${palette.glow}"/>`
  );
}

function sunMotif(palette: Palette): string {
  let rays = '';
  for (let i = 0; i < 12; i += 1) {
    rays += `<path d="M470 170L490 170L480 110Z" transform="rotate(${i * 30} 480 400)"/>`;
  }
  return (
    `<circle cx="480" cy="400" r="190" fill="${palette.glow}" filter="url(#glow)" opacity=".6"/>` +
    `<g fill="${palette.glow}">${rays}</g>` +
    `<circle cx="480" cy="400" r="170" fill="url(#orb)"/>` +
    `<circle cx="480" cy="400" r="170" fill="none" stroke="${palette.glow}" stroke-width="6"/>`
  );
}

function catMotif(palette: Palette): string {
  const head = 'M340 300L370 470Q360 600 480 640Q600 600 590 470L620 300L540 380Q480 365 420 380Z';
  return (
    `<path d="${head}" fill="${palette.glow}" filter="url(#glow)" opacity=".5"/>` +
    `<path d="${head}" fill="${palette.deep}"/>` +
    `<ellipse cx="430" cy="490" rx="24" ry="30" fill="${palette.accent}"/>` +
    `<ellipse cx="530" cy="490" rx="24" ry="30" fill="${palette.accent}"/>` +
    `<ellipse cx="430" cy="490" rx="6" ry="22" fill="${palette.deep}"/>` +
    `<ellipse cx="530" cy="490" rx="6" ry="22" fill="${palette.deep}"/>` +
    `<path d="M468 560L492 560L480 575Z" fill="${palette.light}"/>` +
    `<path d="M440 570L360 560M440 582L360 592M520 570L600 560M520 582L600 592" stroke="${palette.glow}" stroke-width="3" stroke-linecap="round"/>`
  );
}

function planetMotif(palette: Palette): string {
  const ring =
    '<ellipse cx="480" cy="400" rx="250" ry="58" fill="none" stroke-width="14" transform="rotate(-16 480 400)"';
  return (
    `<circle cx="480" cy="400" r="175" fill="${palette.glow}" filter="url(#glow)" opacity=".45"/>` +
    `${ring} stroke="${palette.accent}" opacity=".9"/>` +
    `<circle cx="480" cy="400" r="150" fill="${palette.mid}"/>` +
    `<circle cx="480" cy="400" r="150" fill="url(#orb)"/>` +
    `<circle cx="480" cy="400" r="150" fill="none" stroke="${palette.glow}" stroke-width="4" opacity=".8"/>` +
    // Only the front half of the ring is redrawn, so the planet sits inside it.
    `<path d="M230 400A250 58 0 0 0 730 400" fill="none" stroke="${palette.accent}" stroke-width="14" transform="rotate(-16 480 400)"/>`
  );
}
