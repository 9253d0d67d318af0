#!/usr/bin/env node
// Draws ragdesk's tray and window icons as real PNGs (no image tools needed): a database "stack" on a
// rounded square, with a coloured status dot for the paused and error states. Run: node resources/make-icons.mjs
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import zlib from 'node:zlib';

const here = path.dirname(fileURLToPath(import.meta.url));

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(buf) {
  let c = 0xffffffff;
  for (const b of buf) c = CRC_TABLE[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}
function chunk(type, data) {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const td = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(td));
  return Buffer.concat([len, td, crc]);
}
function png(size, rgba) {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(size, 0);
  ihdr.writeUInt32BE(size, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 6; // RGBA
  const raw = Buffer.alloc((size * 4 + 1) * size);
  for (let y = 0; y < size; y++) {
    raw[y * (size * 4 + 1)] = 0; // filter: none
    rgba.copy(raw, y * (size * 4 + 1) + 1, y * size * 4, (y + 1) * size * 4);
  }
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', ihdr), chunk('IDAT', zlib.deflateSync(raw)), chunk('IEND', Buffer.alloc(0))]);
}

/** Coverage (0..1) of a pixel by a shape, 4x4 supersampled for smooth edges. */
function draw(size, inside, color, buf) {
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      let hits = 0;
      for (let sy = 0; sy < 4; sy++) for (let sx = 0; sx < 4; sx++) if (inside((x + (sx + 0.5) / 4) / size, (y + (sy + 0.5) / 4) / size)) hits++;
      if (!hits) continue;
      const a = (hits / 16) * (color[3] / 255);
      const i = (y * size + x) * 4;
      const da = buf[i + 3] / 255;
      const oa = a + da * (1 - a);
      for (let c = 0; c < 3; c++) buf[i + c] = Math.round((color[c] * a + buf[i + c] * da * (1 - a)) / (oa || 1));
      buf[i + 3] = Math.round(oa * 255);
    }
  }
}

const roundedSquare = (r) => (u, v) => {
  const dx = Math.max(r - u, 0, u - (1 - r));
  const dy = Math.max(r - v, 0, v - (1 - r));
  return dx * dx + dy * dy <= r * r;
};
const ellipse = (cx, cy, rx, ry) => (u, v) => ((u - cx) / rx) ** 2 + ((v - cy) / ry) ** 2 <= 1;
const rect = (x0, y0, x1, y1) => (u, v) => u >= x0 && u <= x1 && v >= y0 && v <= y1;
const union = (...fs) => (u, v) => fs.some((f) => f(u, v));
const minus = (a, b) => (u, v) => a(u, v) && !b(u, v);

function icon(size, { background, foreground, dot }) {
  const buf = Buffer.alloc(size * size * 4);
  if (background) draw(size, roundedSquare(0.22), background, buf);
  // A database stack: three discs joined by a body, with thin gaps between the layers.
  const body = union(rect(0.24, 0.26, 0.76, 0.74), ellipse(0.5, 0.26, 0.26, 0.1), ellipse(0.5, 0.74, 0.26, 0.1));
  const gap1 = minus(ellipse(0.5, 0.42, 0.27, 0.1), ellipse(0.5, 0.39, 0.27, 0.1));
  const gap2 = minus(ellipse(0.5, 0.59, 0.27, 0.1), ellipse(0.5, 0.56, 0.27, 0.1));
  draw(size, minus(body, union(gap1, gap2)), foreground, buf);
  if (dot) {
    draw(size, ellipse(0.78, 0.78, 0.2, 0.2), [255, 255, 255, 255], buf);
    draw(size, ellipse(0.78, 0.78, 0.15, 0.15), dot, buf);
  }
  return png(size, buf);
}

const INDIGO = [76, 110, 245, 255];
const WHITE = [255, 255, 255, 255];
const DARK = [33, 37, 41, 255];
const AMBER = [250, 176, 5, 255];
const RED = [250, 82, 82, 255];

const out = (name, data) => {
  fs.writeFileSync(path.join(here, name), data);
  console.log(`wrote resources/${name} (${data.length} bytes)`);
};
for (const [suffix, size] of [['', 16], ['@2x', 32]]) {
  out(`tray/tray${suffix}.png`, icon(size, { background: INDIGO, foreground: WHITE }));
  out(`tray/tray-paused${suffix}.png`, icon(size, { background: INDIGO, foreground: WHITE, dot: AMBER }));
  out(`tray/tray-error${suffix}.png`, icon(size, { background: INDIGO, foreground: WHITE, dot: RED }));
  // macOS menu bar template images: black + alpha, the system tints them.
  out(`tray/trayTemplate${suffix}.png`, icon(size, { foreground: DARK }));
}
out('icon.png', icon(256, { background: INDIGO, foreground: WHITE }));
// The installers' icon (macOS needs at least 512 px to build the .icns).
out('icon-512.png', icon(512, { background: INDIGO, foreground: WHITE }));
