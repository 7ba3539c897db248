// Draws the installed app's icons (public/icons/*.png) from the shield of
// public/favicon.svg, in the vault's look: the shield on the page's dark
// ground with a hard comic shadow. The PNGs are committed, so the build needs
// no image library; run this again after changing the favicon:
//   node apps/web/make-icons.mjs
// (sharp comes with libs/media's dependencies.)
import { mkdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';

const PUBLIC = fileURLToPath(new URL('./public/', import.meta.url));
const GROUND = '#060913';
const GLOW = '#c81e1e';

/** The favicon's drawing (its paths, on a 64 × 64 grid), so that the icons follow it. */
function shieldPaths() {
  const svg = readFileSync(`${PUBLIC}favicon.svg`, 'utf8');
  const paths = svg.match(/<path\b[^>]*\/>/g);
  if (!paths) throw new Error('public/favicon.svg has no <path/> to draw the icons from');
  return paths.join('');
}

/** The outline alone (the favicon's first path), filled black: the comic drop shadow. */
function shadowPath() {
  const outline = shieldPaths().match(/\bd="([^"]+)"/);
  if (!outline) throw new Error('public/favicon.svg: its first path has no d attribute');
  return `<path fill="#000" d="${outline[1]}"/>`;
}

/**
 * The icon on a 512 grid. `shieldShare` is the shield's height as a share of
 * the icon: a maskable icon keeps it inside the central circle (80 % of the
 * side) that every launcher's mask leaves visible. `rounded` gives the
 * ordinary icon its own tile corners; a maskable one is square, the launcher
 * cuts it.
 */
function iconSvg({ shieldShare, rounded }) {
  const size = 512;
  const scale = (size * shieldShare) / 64;
  const offset = (size - 64 * scale) / 2;
  const shadow = 4;
  const corner = rounded ? 96 : 0;
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${size} ${size}">
  <defs><radialGradient id="glow" cx="50%" cy="30%" r="70%"><stop offset="0" stop-color="${GLOW}" stop-opacity="0.45"/><stop offset="1" stop-color="${GLOW}" stop-opacity="0"/></radialGradient></defs>
  <rect width="${size}" height="${size}" rx="${corner}" fill="${GROUND}"/>
  <rect width="${size}" height="${size}" rx="${corner}" fill="url(#glow)"/>
  <g transform="translate(${offset} ${offset}) scale(${scale})">
    <g transform="translate(${shadow} ${shadow})">${shadowPath()}</g>
    ${shieldPaths()}
  </g>
</svg>`;
}

const ICONS = [
  { file: 'icons/vault-192.png', size: 192, shieldShare: 0.72, rounded: true },
  { file: 'icons/vault-512.png', size: 512, shieldShare: 0.72, rounded: true },
  { file: 'icons/vault-maskable-512.png', size: 512, shieldShare: 0.56, rounded: false },
  // iOS takes the home-screen icon from this link, not from the manifest, and rounds it itself.
  { file: 'icons/apple-touch-icon.png', size: 180, shieldShare: 0.68, rounded: false },
];

mkdirSync(`${PUBLIC}icons`, { recursive: true });
for (const icon of ICONS) {
  await sharp(Buffer.from(iconSvg(icon)), { density: 72 * (icon.size / 512) * 4 })
    .resize(icon.size, icon.size)
    .png({ compressionLevel: 9, palette: false })
    .toFile(`${PUBLIC}${icon.file}`);
  process.stdout.write(`${icon.file}: ${icon.size} × ${icon.size}\n`);
}
