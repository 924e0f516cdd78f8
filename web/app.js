// The teaching demos in a browser (docs/web.md): the emulator runs as WebAssembly (web/iwarp_web.c), this draws
// the view model it keeps as the SDL2 view draws it: the same colours (palette.def, read from the module), the same
// frame (tools/view/render.c's layout(): top bar, grid, side panel, their sizes from the window's), and the grid
// with the same shapes as tools/view/draw.c's, pixel for pixel (whole-pixel rectangles, rounded boxes as rows,
// arrowheads as columns), so that a test can hold the page's picture to the viewer's screenshot (tests/web).
'use strict';

const params = new URLSearchParams(location.search);
const $ = (id) => document.getElementById(id);

let M, api, w, pal, L, E; // module, wrapped API, context, palette, the demo's layout, enums
let playing = false, selected = -1, lastTick = null, owed = 0;
// The selected cell's channel whose pathway is traced (-1: none), and the pathway (iwarp_web_pathway).
let channel = -1, P = { n: 0 };
// What the viewer's keys turn on and off: the help overlay (H), the legend (L), the frame rate (R); the text's
// scale (+ -, the viewer's --scale); the speed F goes back to from full speed.
let help = false, legendOn = true, rateOn = false, scale = 1, speedBeforeFull = null;
let F; // the frame: sizes from the window (frameLayout)
let C = { n: 0 }; // the wait cycle the frame outlines (iwarp_web_cycle)
// The timeline's end (render_frame_t's head; it starts at clock 0): the furthest clock run so far, and how the run
// ended there (its status, and the clock its wait cycle closed at), which going back forgets in the wasm but the
// timeline still shows.
let head = 0, ending = null;
// Zoom over the grid, as the viewer's: 1 fits the whole array; above, the cell coordinate (vx, vy) is in the middle
// (negative: the array's middle).
const Z = { zoom: 1, vx: -1, vy: -1 };
const MAX_ZOOM = 16, MAX_SCALE = 4, JUMP_CLOCKS = 100;

function wrapApi(m) {
  const f = (name, ret, args) => m.cwrap('iwarp_web_' + name, ret, args);
  return {
    create: f('new', 'number', []),
    error: f('error', 'string', ['number']),
    palette: f('palette', 'string', ['number']),
    demos: f('demos', 'string', ['number']),
    load: f('load', 'number', ['number', 'string']),
    loadText: f('load_text', 'number', ['number', 'string', 'string', 'string', 'string']),
    step: f('step', 'number', ['number', 'number']),
    seek: f('seek', 'number', ['number', 'number']),
    marks: f('marks', 'number', ['number']),
    nmarks: f('nmarks', 'number', ['number']),
    clock: f('clock', 'number', ['number']),
    status: f('status', 'string', ['number']),
    hash: f('hash', 'string', ['number']),
    layout: f('layout', 'string', ['number']),
    slots: f('slots', 'number', ['number']),
    util: f('util', 'number', ['number']),
    fed: f('fed', 'number', ['number']),
    narrative: f('narrative', 'string', ['number']),
    narrativeSelect: f('narrative_select', 'number', ['number']),
    cell: f('cell', 'string', ['number', 'number']),
    cycle: f('cycle', 'string', ['number']),
    pathway: f('pathway', 'string', ['number', 'number', 'number']),
  };
}

// --- colours (draw.c's color_mix and render.c's theme) ---

function rgb(hex) {
  const v = parseInt(hex.slice(1), 16);
  return [v >> 16, (v >> 8) & 255, v & 255];
}
function mix(a, b, t) {
  t = Math.min(Math.max(t, 0), 1);
  return [0, 1, 2].map((i) => Math.floor(a[i] + (b[i] - a[i]) * t + 0.5));
}
// The CSS of a colour, made once per colour (a frame asks for it thousands of times).
const cssOf = new Map();
function css(c) {
  const key = (c[0] << 16) | (c[1] << 8) | c[2];
  let s = cssOf.get(key);
  if (s === undefined) cssOf.set(key, s = `rgb(${c[0]},${c[1]},${c[2]})`);
  return s;
}
function pathColour(path) {
  if (path === 0) return pal.theme.halted;
  return pal.paths[(path - 1) % pal.paths.length];
}
function utilColour(u) {
  const t = pal.theme;
  return u < 0.5 ? mix(t.util_lo, t.util_mid, u * 2) : mix(t.util_mid, t.util_hi, u * 2 - 1);
}

// --- the view model's slots (trace/view_model.h), read as pairs of 32-bit words ---

let u32, util, fed;
function frameViews() {
  const p = api.slots(w) >> 2;
  u32 = M.HEAPU32.subarray(p, p + 2 * L.width * L.height * L.cell_slots);
  const up = api.util(w) >> 2;
  util = M.HEAPF32.subarray(up, up + L.width * L.height * 4);
  const fp = api.fed(w);
  fed = M.HEAPU8.subarray(fp, fp + L.width * L.height * L.channels);
}
const lo = (s) => u32[2 * s];
const hi = (s) => u32[2 * s + 1];
const cellBase = (idx) => idx * L.cell_slots;
const lcSlot = (idx, lc) => cellBase(idx) + L.lc0 + lc * E.VM_LC_SLOTS;
const linkSlot = (idx, d) => cellBase(idx) + L.link0 + d * E.VM_LINK_SLOTS;
function lcInfo(idx, lc) {
  const s = lcSlot(idx, lc), a = lo(s + E.VM_LC_A), b = hi(s + E.VM_LC_A), ends = lo(s + E.VM_LC_ENDS);
  return {
    state: a & 0xff, count: b & 0xffff, routeKind: (ends >> 12) & 15, routeDir: (ends >> 8) & 15,
    path: lo(s + E.VM_LC_PATH),
  };
}
function lcColour(idx, lc) {
  if (!fed[idx * L.channels + lc]) return mix(pal.theme.halted, pal.theme.bg, 0.25);
  return pathColour(lcInfo(idx, lc).path);
}
function stateOf(idx) {
  const t = pal.theme, ca = lo(cellBase(idx) + E.VM_CA), st = ca & 0xff, gate = (ca >> 16) & 0xff;
  if (!L.has_program[idx] || st === E.CA_IDLE) return [t.idle, 'idle'];
  if (st === E.CA_RUNNING) return [t.run, 'run'];
  if (st === E.CA_WAITING) return gate < 2 ? [t.wait_in, 'in gi' + gate] : [t.wait_out, 'out go' + (gate - 2)];
  if (st === E.CA_HALTED) return [t.halted, 'halt'];
  return [t.fault, 'fault'];
}

// --- the frame: render.c's layout() from the window's size ---

// DejaVu Sans's (and Sans Mono's) vertical metrics in font units: SDL_ttf's TTF_FontAscent and TTF_FontHeight are
// these scaled and rounded up, and the viewer lays text out by them.
const ASCENDER = 1901, DESCENDER = 483, UNITS = 2048;
const FACES = { sans: '"DejaVu Sans", sans-serif', mono: '"DejaVu Sans Mono", monospace' };
const fonts = new Map();
function font(face, size) {
  size = Math.max(Math.floor(size), 6);
  const key = face + size;
  if (!fonts.has(key)) {
    const family = face === 'mono' ? FACES.mono : FACES.sans;
    fonts.set(key, {
      css: `${face === 'bold' ? 'bold ' : ''}${size}px ${family}`, size, adv: new Map(),
      asc: Math.ceil(size * ASCENDER / UNITS), height: Math.ceil(size * (ASCENDER + DESCENDER) / UNITS),
    });
  }
  return fonts.get(key);
}

function frameLayout() {
  const W = window.innerWidth, H = window.innerHeight;
  const s = Math.min(Math.max(Math.min(W / 1280, H / 800), 0.6), 2.0), t = s * scale;
  const px = (v) => Math.floor(v * t + 0.5);
  // The panels grow with the text (render.c's layout()); the grid keeps at least a third of the width.
  let top = Math.floor(54 * t), bottom = Math.floor(74 * t);
  let panel = Math.floor(Math.min(Math.max(W * 0.31 * scale, 320 * t), 480 * t));
  if (panel > Math.floor(W * 2 / 3)) panel = Math.floor(W * 2 / 3);
  if (top + bottom > H / 3) { // the bars keep their proportions in a third of the height
    top = Math.floor(H * 54 / (3 * 128));
    bottom = Math.floor(H / 3) - top;
  }
  F = { W, H, s, t, px, top, bottom, panel, cw: W - panel, ch: Math.max(H - top - bottom, 1) };
  // The timeline's track (render.c's L->bar), in the canvas, which reaches down over the viewer's timeline area.
  F.bar = { x: Math.trunc(24 * t), y: F.ch + Math.trunc(14 * t), w: F.cw - Math.trunc(48 * t), h: Math.trunc(14 * t) };
  // The CSS of the bars and the panel: render.c's and panel.c's sizes, and SDL_ttf's line heights.
  const root = document.documentElement.style;
  root.setProperty('--top', top + 'px');
  root.setProperty('--bottom', bottom + 'px');
  root.setProperty('--panel', panel + 'px');
  // The controls take the row under the timeline's numbers, where the viewer writes its keys.
  root.setProperty('--below-bar', F.bar.y - F.ch + F.bar.h + px(4) + font('sans', px(12)).height + 'px');
  for (const n of [2, 3, 4, 6, 7, 8, 10, 12, 16, 18, 22, 60]) root.setProperty('--p' + n, px(n) + 'px');
  for (const n of [8, 13, 22]) root.setProperty('--c' + n, Math.floor(n * s + 0.5) + 'px');
  // Each size's font and line heights, and how far to move its text so that its baseline lies where SDL_ttf's
  // does in a line of that height (at the line's top plus the ascent rounded up; the browser rounds the ascent to
  // the nearest pixel and centres the glyphs in a taller line): --dyN for a line, --dylN in a paragraph.
  for (const n of [11, 12, 13, 14, 15, 16, 19, 21]) {
    const f = font('sans', px(n)), para = Math.floor(f.height * 1.12 + 0.5); // text_wrap's line spacing
    root.setProperty('--f' + n, f.size + 'px');
    root.setProperty('--h' + n, f.height + 'px');
    root.setProperty('--l' + n, para + 'px');
    root.setProperty('--dy' + n, f.asc - baseline(f, f.height) + 'px');
    root.setProperty('--dyl' + n, f.asc - baseline(f, para) + 'px');
  }
  // SDL_ttf advances by whole pixels (hinted): the monospaced table's columns stand where the viewer's do.
  for (const n of [11, 12]) {
    const f = font('mono', px(n));
    setFont(f);
    const adv = g.measureText('0').width;
    root.setProperty('--mono-ls' + n, (Math.round(adv) - adv).toFixed(3) + 'px');
    root.setProperty('--dym' + n, f.asc - baseline(f, f.height) + 'px');
    root.setProperty('--dyml' + n, f.asc - baseline(f, Math.floor(f.height * 1.12 + 0.5)) + 'px');
  }
  // The top bar's texts where panel_draw_top() puts them: centred by SDL_ttf's heights, in whole pixels.
  const h16 = font('sans', px(16)).height;
  root.setProperty('--title-y', Math.floor((top - font('sans', px(21)).height) / 2) + 'px');
  root.setProperty('--clock-y', Math.floor((top - font('sans', px(19)).height) / 2) + 'px');
  root.setProperty('--pill-y', Math.floor((top - (h16 + px(8))) / 2) + 'px');
  // The legend's height whole and in its first rows, as panel.c's legend_height() reserves it (from its line on).
  const h13 = font('sans', px(13)).height, h15 = font('sans', px(15)).height;
  F.legendFull = px(286) - px(12) + px(8);
  F.legendShort = px(8) + h15 + px(3) + 4 * h13 + px(12);
}

// Where the browser puts the baseline of a line of font f, `line` pixels high, from the line's top.
function baseline(f, line) {
  const probe = document.createElement('div');
  probe.style.cssText = `position:absolute;top:0;left:0;visibility:hidden;font:${f.css};line-height:${line}px`;
  probe.innerHTML = 'Hg<span style="display:inline-block;width:1px;height:0"></span>';
  document.body.appendChild(probe);
  const at = probe.lastChild.getBoundingClientRect().top - probe.getBoundingClientRect().top;
  probe.remove();
  return Math.round(at);
}

/* Below this many pixels a cell box has no room for its "(x,y)" title: rulers carry them. */
const TITLE_MIN_BOX = 34;

function gridLayout() {
  const s = F.s, pad = Math.floor(10 * s), zoom = Math.max(Z.zoom, 1);
  const fit = (len, n) => Math.min(len / (n + 0.5), 260 * s) * zoom;
  let grid = { x: pad, y: pad, w: F.cw - 2 * pad, h: F.ch - 2 * pad };
  let px = fit(grid.w, L.width), py = fit(grid.h, L.height);
  const G = { s, t: F.t, rulers: false };
  if (Math.min(px, py) * 0.72 < TITLE_MIN_BOX) {
    G.rulers = true;
    G.rulerFont = Math.floor(Math.max(10, 12 * F.t));
    const band = Math.floor(G.rulerFont * 1.6), left = Math.floor(G.rulerFont * 1.9);
    G.rulerX = { x: grid.x + left, y: grid.y, w: grid.w - left, h: band };
    G.rulerY = { x: grid.x, y: grid.y + band, w: left, h: grid.h - band };
    grid = { x: grid.x + left, y: grid.y + band, w: grid.w - left, h: grid.h - band };
    px = fit(grid.w, L.width);
    py = fit(grid.h, L.height);
  }
  const small = Math.min(px, py);
  G.gap = small * (small > 150 * s ? 0.32 : 0.28);
  let bw = px - G.gap, bh = py - G.gap;
  bw = Math.min(bw, bh * 1.3);
  bh = Math.min(bh, bw * 1.3);
  Object.assign(G, { grid, bw, bh, pitchX: bw + G.gap, pitchY: bh + G.gap });
  // The middle of the grid shows (vx, vy): the array's middle when it all fits, else where the user looks, kept so
  // that the grid never shows past the array's edges.
  const halfX = grid.w / 2 / G.pitchX, halfY = grid.h / 2 / G.pitchY, midX = L.width / 2, midY = L.height / 2;
  let vx = Z.vx >= 0 && halfX < midX ? Z.vx : midX, vy = Z.vy >= 0 && halfY < midY ? Z.vy : midY;
  if (halfX < midX) vx = Math.min(Math.max(vx, halfX - 0.25), L.width - halfX + 0.25);
  if (halfY < midY) vy = Math.min(Math.max(vy, halfY - 0.25), L.height - halfY + 0.25);
  G.vx = vx;
  G.vy = vy;
  G.ox = grid.x + grid.w / 2 - vx * G.pitchX + G.gap / 2;
  G.oy = grid.y + grid.h / 2 - vy * G.pitchY + G.gap / 2;
  if (G.rulers) {
    const need = G.rulerFont * 1.5;
    G.rulerStep = [1, 2, 4, 5, 8, 10, 16, 32].find((k) => Math.min(G.pitchX, G.pitchY) * k >= need) || 32;
  }
  if (zoom > 1) { // the minimap, in the grid's corner
    const side = Math.min(150 * s, Math.min(grid.w, grid.h) * 0.3), cell = side / Math.max(L.width, L.height);
    const mw = Math.trunc(cell * L.width), mh = Math.trunc(cell * L.height);
    G.minimap = { x: grid.x + grid.w - mw - pad, y: grid.y + grid.h - mh - pad, w: mw, h: mh };
  }
  return G;
}

// The cell coordinate (fractional) under a pixel of the grid: render_grid_coord().
function gridCoord(x, y) {
  return [(x - G.ox + G.gap / 2) / G.pitchX, (y - G.oy + G.gap / 2) / G.pitchY];
}

// Zooms by `factor`, keeping the cell under pixel (x, y) where it is (the grid's middle when x is undefined): the
// viewer's zoom_by().
function zoomBy(factor, x, y) {
  const z = Math.min(Math.max(Z.zoom * factor, 1), MAX_ZOOM);
  if (z === Z.zoom) return;
  if (x === undefined) {
    x = G.grid.x + Math.trunc(G.grid.w / 2);
    y = G.grid.y + Math.trunc(G.grid.h / 2);
  }
  const [cx, cy] = gridCoord(x, y), k = Z.zoom / z;
  Z.vx = cx + (G.vx - cx) * k;
  Z.vy = cy + (G.vy - cy) * k;
  Z.zoom = z;
  if (z === 1) Z.vx = Z.vy = -1;
  draw();
}

// --- drawing, as tools/view/draw.c and text.c do it ---

const canvas = $('grid'), g = canvas.getContext('2d', { alpha: false });
let G; // the last frame's grid layout, for clicks

// The colour and font last set: setting the same again costs the canvas a parse each time (a frame of 8x8 has
// thousands of rectangles). Forgotten when the canvas state is restored.
let painted = null, fonted = null;
function paint(c) {
  flush();
  const s = css(c);
  if (s !== painted) g.fillStyle = painted = s;
}
function setFont(f) {
  if (f.css !== fonted) g.font = fonted = f.css;
}
// Drawing only inside r until restore().
function clip(r) {
  flush();
  g.save();
  g.beginPath();
  g.rect(r.x, r.y, r.w, r.h);
  g.clip();
}
function restore() {
  flush();
  g.restore();
  painted = fonted = null;
}

// Rectangles of one colour in a row go to the canvas as one path, filled once (an arrowhead is a rectangle per
// pixel column, a rounded box one per row): the same pixels, whole ones, in a few hundred operations a frame
// instead of thousands. Every other drawing flushes them first.
let pending = null, pendingRects = 0;
function flush() {
  if (pending === null) return;
  g.fill();
  pending = null;
  pendingRects = 0;
}
function rect(X, Y, W, H, c) {
  const s = css(c);
  if (s !== pending) {
    flush();
    if (s !== painted) g.fillStyle = painted = s;
    g.beginPath();
    pending = s;
  }
  g.rect(X, Y, W, H);
}

// SDL's software renderer fills whole pixels: the corner truncated, the size truncated (at least one).
function fill(x, y, wd, ht, c) {
  if (wd <= 0 || ht <= 0) return;
  rect(Math.trunc(x), Math.trunc(y), Math.max(Math.trunc(wd), 1), Math.max(Math.trunc(ht), 1), c);
}
// draw_round_fill: whole pixels, the corners as rows inset along a circle.
function roundFill(x, y, wd, ht, radius, c) {
  const X = Math.round(x), Y = Math.round(y), W = Math.round(x + wd) - X, H = Math.round(y + ht) - Y;
  if (W <= 0 || H <= 0) return;
  const rows = Math.min(Math.trunc(Math.min(radius, Math.min(W, H) / 2)), 64);
  for (let i = 0; i < rows; i++) {
    const dy = rows - (i + 0.5), inset = Math.round(rows - Math.sqrt(Math.max(rows * rows - dy * dy, 0)));
    rect(X + inset, Y + i, W - 2 * inset, 1, c);
    rect(X + inset, Y + H - i - 1, W - 2 * inset, 1, c);
  }
  if (H - 2 * rows > 0) rect(X, Y + rows, W, H - 2 * rows, c);
}
function roundBox(x, y, wd, ht, radius, t, border, inside) {
  roundFill(x, y, wd, ht, radius, border);
  roundFill(x + t, y + t, wd - 2 * t, ht - 2 * t, radius - t > 1 ? radius - t : 1, inside);
}
const circle = (cx, cy, r, c) => roundFill(cx - r, cy - r, 2 * r, 2 * r, r, c);
// draw_arrowhead: a column (or row) of pixels per step back from the tip, as wide as the arrow is there.
function arrowhead(x, y, dir, length, width, c) {
  const steps = Math.ceil(length);
  for (let k = 0; k < steps; k++) {
    const across = width * (k + 1) / steps;
    if (dir === 'right') fill(x - k - 1, y - across / 2, 1, across, c);
    else if (dir === 'left') fill(x + k, y - across / 2, 1, across, c);
    else if (dir === 'down') fill(x - across / 2, y - k - 1, across, 1, c);
    else fill(x - across / 2, y + k, across, 1, c);
  }
}

// Text as text.c draws it: glyph by glyph at whole-pixel advances, the top of the line at y.
function advance(f, ch) {
  let a = f.adv.get(ch);
  if (a === undefined) {
    setFont(f);
    a = Math.round(g.measureText(ch).width);
    f.adv.set(ch, a);
  }
  return a;
}
function textWidth(f, s) {
  let wd = 0;
  for (const ch of s) wd += advance(f, ch);
  return wd;
}
// A text once drawn is kept as a small picture (as SDL_ttf's glyphs are kept as textures): a frame of 8x8 has some
// 800 glyphs, each fillText a shaping of its own; drawImage of the kept picture costs a copy.
const texts = new Map(), TEXT_PAD = 3;
function text(f, x, y, s, c) {
  const key = `${f.css}|${c}|${s}`, dpr = window.devicePixelRatio || 1;
  let t = texts.get(key);
  if (t === undefined || t.dpr !== dpr) {
    if (texts.size > 4000) texts.clear(); // many sizes came and went (resizes)
    const w = textWidth(f, s), pic = document.createElement('canvas');
    pic.width = Math.ceil((w + 2 * TEXT_PAD) * dpr);
    pic.height = Math.ceil((f.height + 2 * TEXT_PAD) * dpr);
    const p = pic.getContext('2d');
    p.setTransform(dpr, 0, 0, dpr, 0, 0);
    p.font = f.css;
    p.fillStyle = css(c);
    let pen = TEXT_PAD;
    for (const ch of s) {
      if (ch !== ' ') p.fillText(ch, pen, TEXT_PAD + f.asc);
      pen += advance(f, ch);
    }
    t = { pic, w, dpr };
    texts.set(key, t);
  }
  flush();
  g.drawImage(t.pic, Math.trunc(x) - TEXT_PAD, Math.trunc(y) - TEXT_PAD, t.pic.width / dpr, t.pic.height / dpr);
  return t.w;
}
const textCentred = (f, x, y, s, c) => text(f, x - Math.trunc(textWidth(f, s) / 2), y, s, c);
const textRight = (f, x, y, s, c) => text(f, x - textWidth(f, s), y, s, c);

// One directed lane (render.c's lane()): utilization band, pathway stripes, arrowhead.
function lane(x0, y0, x1, y1, band, u, paths, busy, head) {
  const horiz = Math.abs(y1 - y0) < 0.5, len = horiz ? Math.abs(x1 - x0) : Math.abs(y1 - y0);
  const sx = x1 > x0 ? 1 : -1, sy = y1 > y0 ? 1 : -1, arrow = Math.min(band * 1.1, len * 0.35);
  const body = head ? len - arrow : len, uc = utilColour(u), thin = Math.max(2, band * (0.25 + 0.75 * u));
  const seg = (off, wd, c) => horiz ? fill(Math.min(x0, x0 + sx * body), y0 + off, body, wd, c)
    : fill(x0 + off, Math.min(y0, y0 + sy * body), wd, body, c);
  if (paths.length === 0) {
    seg(-thin / 2, thin, uc);
  } else {
    seg(-band / 2, band, uc);
    const inner = band * 0.8, wd = inner / paths.length;
    paths.forEach((c, i) => seg(-inner / 2 + wd * i, Math.max(wd - 1, 1.5), busy[i] ? c : mix(c, pal.theme.bg, 0.6)));
  }
  if (head) {
    const hb = paths.length > 0 ? band : Math.max(thin * 2.2, band * 0.8);
    arrowhead(x1, y1, horiz ? (sx > 0 ? 'right' : 'left') : (sy > 0 ? 'down' : 'up'), arrow, hb + 2, uc);
  }
}

function laneBand() {
  const band = Math.min(G.gap * 0.32, Math.min(G.bw, G.bh) * 0.17);
  return band < 3 ? 3 : band > 24 * G.s ? 24 * G.s : band;
}

// render.c's lane_geometry(): straight across the gap, or a wrap-around link in two halves through the margins.
function laneGeometry(x, y, d) {
  const bx = G.ox + x * G.pitchX, by = G.oy + y * G.pitchY;
  const horiz = d === E.DIR_PX || d === E.DIR_MX, size = horiz ? L.width : L.height;
  const side = (d === E.DIR_PX || d === E.DIR_MY) ? 0.36 : 0.64;
  const pos = horiz ? by + G.bh * side : bx + G.bw * (1 - side);
  const positive = d === E.DIR_PX || d === E.DIR_PY, coord = horiz ? x : y;
  const wraps = positive ? coord === size - 1 : coord === 0;
  const start = horiz ? (positive ? bx + G.bw : bx) : (positive ? by + G.bh : by), sign = positive ? 1 : -1;
  const segs = [];
  const seg = (a, b, from, to, head) => segs.push(horiz ? { x0: a, y0: pos, x1: b, y1: pos, from, to, head }
    : { x0: pos, y0: a, x1: pos, y1: b, from, to, head });
  if (!wraps) {
    seg(start, start + sign * G.gap, 0, 1, true);
  } else {
    const stub = G.gap * 0.9;
    const far = horiz ? (positive ? G.ox : G.ox + (size - 1) * G.pitchX + G.bw)
      : (positive ? G.oy : G.oy + (size - 1) * G.pitchY + G.bh);
    seg(start, start + sign * stub, 0, 0.5, false);
    seg(far - sign * stub, far, 0.5, 1, true);
  }
  return { segs, horiz, wraps, side, pos, start, sign };
}

// How far along link d of cell idx its last word is (0..1), or -1: render.c's render_word_pos(), `frac` of the way
// to the next clock.
function wordPos(idx, d, clock, frac) {
  const sent = lo(linkSlot(idx, d) + E.VM_LINK_SENT);
  if (sent === 0 || clock < sent) return -1;
  const p = (clock - sent + frac + 0.5) / L.hop_latency;
  return p >= 1 ? -1 : p;
}

// Beside a lane, on the side away from its partner: its utilization ("100%", on large cells) and, on the traced
// pathway, beyond it the hop's number in a disc of the selection's colour (render_links.c's lane_label()).
function laneLabel(geo, band, small, pct, hop) {
  const mid = geo.start + geo.sign * (geo.wraps ? G.gap * 0.9 : G.gap) / 2, outerLow = geo.side < 0.5;
  let reach = band; // how far from the lane's middle line the labels so far reach
  if (pct) {
    const tw = textWidth(small, pct);
    if (geo.horiz) {
      const ty = outerLow ? geo.pos - band - small.height : geo.pos + band * 0.9;
      textCentred(small, Math.trunc(mid), ty, pct, pal.theme.muted);
      reach = outerLow ? geo.pos - ty : ty + small.height - geo.pos;
    } else {
      const tx = outerLow ? geo.pos + band : geo.pos - band - tw;
      text(small, tx, mid - small.height / 2, pct, pal.theme.muted);
      reach = band + tw;
    }
  }
  const rad = Math.max(band * 0.55, 9 * G.t), nf = hop > 0 ? font('bold', Math.max(rad * 1.25, 8)) : null;
  if (!nf || G.gap < 2 * rad + 4) return; // no room: the pathway's frames alone show the way
  const off = reach + 3 + rad, sgn = outerLow ? -1 : 1;
  const cx = geo.horiz ? mid : geo.pos - sgn * off, cy = geo.horiz ? geo.pos + sgn * off : mid;
  circle(cx, cy, rad, pal.theme.selected);
  textCentred(nf, Math.trunc(cx), Math.trunc(cy - nf.height / 2), String(hop), pal.theme.panel);
}

// The traced pathway's hop numbers by the link each leaves on (cell * 4 + direction: the first hop that leaves
// there), as render_frame() numbers them.
function hopNumbers() {
  const at = new Map();
  for (let k = 0; k + 1 < P.n; k++) {
    const [cell, , dir] = P.hops[k];
    if (dir < 4 && !at.has(cell * 4 + dir)) at.set(cell * 4 + dir, k + 1);
  }
  return at;
}

function drawLinks() {
  const band = laneBand(), hops = hopNumbers();
  const small = Math.min(G.pitchX, G.pitchY) >= 150 * G.s ? font('sans', 11 * G.t) : null;
  for (let y = 0; y < L.height; y++) {
    for (let x = 0; x < L.width; x++) {
      const idx = y * L.width + x;
      // The channels routed to each link, in channel order (render.c's link_paths()), in one pass over them.
      const paths = [[], [], [], []], busy = [[], [], [], []];
      for (let lc = 0; lc < L.channels; lc++) {
        const li = lcInfo(idx, lc);
        if ((li.state === E.LC_ROUTED || li.state === E.LC_DRAINING) && li.routeKind === E.END_LINK &&
            li.routeDir < 4) {
          busy[li.routeDir].push(li.count !== 0);
          paths[li.routeDir].push(lcColour(idx, lc));
        }
      }
      for (let d = 0; d < 4; d++) {
        const horiz = d === E.DIR_PX || d === E.DIR_MX, size = horiz ? L.width : L.height;
        const ls = linkSlot(idx, d);
        // A ring of one cell links a cell to itself: only worth drawing once it carried a word.
        if (size === 1 && lo(ls + E.VM_LINK_WORDS) === 0 && hi(ls + E.VM_LINK_WORDS) === 0) continue;
        const u = util[idx * 4 + d], geo = laneGeometry(x, y, d);
        for (const s of geo.segs) lane(s.x0, s.y0, s.x1, s.y1, band, u, paths[d], busy[d], s.head);
        const pct = small && u > 0.005 ? Math.round(u * 100) + '%' : '', hop = hops.get(idx * 4 + d) || 0;
        if (pct || hop > 0) laneLabel(geo, band, small, pct, hop);
      }
    }
  }
}

// render_lane_rects(): the rectangles of a lane's segments, in whole pixels.
function laneRects(cell, d) {
  const band = laneBand(), geo = laneGeometry(cell % L.width, Math.floor(cell / L.width), d);
  return geo.segs.map((s) => {
    const x0 = Math.min(s.x0, s.x1), y0 = Math.min(s.y0, s.y1);
    const len = geo.horiz ? Math.abs(s.x1 - s.x0) : Math.abs(s.y1 - s.y0);
    return geo.horiz ? [Math.trunc(x0), Math.trunc(y0 - band / 2), Math.trunc(len), Math.trunc(band)]
      : [Math.trunc(x0 - band / 2), Math.trunc(y0), Math.trunc(band), Math.trunc(len)];
  });
}

// The links of the wait cycle and of the traced pathway, framed under the links themselves (render_links.c's
// render_draw_lane_frames()): the pathway's frame inside the cycle's, so that a link on both shows both.
function drawLaneFrames() {
  const frame = (cell, dir, t, c) => {
    if (dir >= 4) return; // a wait inside one cell, a pathway's head
    for (const [x, y, wd, ht] of laneRects(cell, dir)) fill(x - t, y - t, wd + 2 * t, ht + 2 * t, c);
  };
  for (const [, laneCell, dir] of C.steps || []) frame(laneCell, dir, Math.max(3, laneBand() * 0.4), pal.theme.cycle);
  for (let k = 0; k + 1 < P.n; k++) frame(P.hops[k][0], P.hops[k][2], Math.max(2, laneBand() * 0.28), pal.theme.selected);
}

// The words in flight, over every lane: a dot in the pathway's colour where each link's last word is.
function drawWords(clock, frac) {
  const band = laneBand(), rad = Math.min(Math.max(3, band * 0.5), band * 0.3 + 4);
  for (let y = 0; y < L.height; y++) {
    for (let x = 0; x < L.width; x++) {
      const idx = y * L.width + x;
      for (let d = 0; d < 4; d++) {
        const word = wordPos(idx, d, clock, frac);
        if (word < 0) continue;
        const wc = pathColour(lcInfo(idx, lo(linkSlot(idx, d) + E.VM_LINK_LC) % L.channels).path);
        for (const s of laneGeometry(x, y, d).segs) {
          if (word < s.from || word >= s.to) continue;
          const t = (word - s.from) / (s.to - s.from);
          const wx = s.x0 + (s.x1 - s.x0) * t, wy = s.y0 + (s.y1 - s.y0) * t;
          circle(wx, wy, rad + 1.5, pal.theme.text);
          circle(wx, wy, rad, wc);
        }
      }
    }
  }
}

// The torus's seams, where the wrap-around links cross: dashed, round the whole array.
function drawDateline() {
  const c = mix(pal.theme.fault, pal.theme.bg, 0.35);
  const x0 = G.ox - G.gap * 0.5 - G.gap * 0.45, y0 = G.oy - G.gap * 0.5 - G.gap * 0.45;
  const x1 = G.ox + L.width * G.pitchX - G.gap * 0.5 + G.gap * 0.45;
  const y1 = G.oy + L.height * G.pitchY - G.gap * 0.5 + G.gap * 0.45;
  const t = Math.max(1.5, G.s * 2), dash = Math.max(6, 8 * G.s);
  for (let x = x0; x < x1; x += 2 * dash) {
    fill(x, y0 - t / 2, Math.min(dash, x1 - x), t, c);
    fill(x, y1 - t / 2, Math.min(dash, x1 - x), t, c);
  }
  for (let y = y0; y < y1; y += 2 * dash) {
    fill(x0 - t / 2, y, t, Math.min(dash, y1 - y), c);
    fill(x1 - t / 2, y, t, Math.min(dash, y1 - y), c);
  }
}

function barX(lc, x0, wd) {
  const grouped = L.channels === 20, unit = wd / (L.channels + (grouped ? 2 : 0) * 0.8);
  const gp = grouped ? (lc >= 8 ? 0.8 : 0) + (lc >= 16 ? 0.8 : 0) : 0;
  return [x0 + unit * (lc + gp) + unit * 0.11, unit * 0.78];
}

function drawBars(idx, x0, y0, wd, ht) {
  const t = pal.theme;
  for (let lc = 0; lc < L.channels; lc++) {
    const li = lcInfo(idx, lc), [bx, bw] = barX(lc, x0, wd);
    if (li.state === E.LC_FREE && li.count === 0) {
      fill(bx, y0, bw, ht, t.slot);
      continue;
    }
    const c = lcColour(idx, lc);
    fill(bx, y0, bw, ht, mix(t.cell, c, 0.28));
    const f = ht * Math.min(li.count, L.queue_depth) / L.queue_depth;
    fill(bx, y0 + ht - f, bw, f, c);
    // A channel still setting up (header) or draining its last credits: a bar across its top.
    if (li.state === E.LC_HEADER || li.state === E.LC_DRAINING || li.state === E.LC_ARRIVED)
      fill(bx - 1, y0 - Math.max(2, ht * 0.06), bw + 2, Math.max(2, ht * 0.06),
        li.state === E.LC_HEADER ? t.text : t.muted);
  }
}

function drawCells() {
  const t = pal.theme, B = Math.min(G.bw, G.bh), BW = G.bw, BH = G.bh;
  const titleSize = Math.trunc(Math.min(Math.max(B * 0.13, 9) * G.t / G.s, Math.min(19 * G.t, B * 0.2)));
  const title = B >= TITLE_MIN_BOX ? font('bold', titleSize) : null;
  const badge = B >= 70 ? font('sans', Math.max(titleSize * 0.8, 8)) : null;
  const mono = B >= 100 ? font('mono', Math.max(titleSize * 0.78, 8)) : null;
  const tiny = B >= 150 ? font('sans', Math.max(titleSize * 0.62, 8)) : null;
  const cycleCells = new Set((C.steps || []).map((st) => st[0]));
  for (let y = 0; y < L.height; y++) {
    for (let x = 0; x < L.width; x++) {
      const idx = y * L.width + x, bx = G.ox + x * G.pitchX, by = G.oy + y * G.pitchY;
      const [sc, stateLabel] = stateOf(idx), hasProg = L.has_program[idx];
      const border = Math.max(2, B * 0.035), radius = B * 0.08;
      if (cycleCells.has(idx)) { // outside the selection's ring, so that a cell on both shows both
        const k = border * 1.6 + Math.max(3, Math.min(border, 6 * G.s));
        roundFill(bx - k, by - k, BW + 2 * k, BH + 2 * k, radius + k, t.cycle);
      }
      if (idx === selected)
        roundFill(bx - border * 1.6, by - border * 1.6, BW + border * 3.2, BH + border * 3.2, radius + border * 1.6,
          t.selected);
      roundBox(bx, by, BW, BH, radius, border, sc, t.cell);
      const pad = B * 0.07 + border, ty = by + pad * 0.8;
      let titleW = 0;
      if (title) {
        let name = `(${x},${y})`;
        if (textWidth(title, name) > (BW - 2 * pad) * 0.45) name = `${x},${y}`;
        titleW = text(title, bx + pad, ty, name, t.text);
      }
      if (badge) {
        // "out go0" when there is room, "out" when not.
        let label = stateLabel, tw = textWidth(badge, label);
        if (titleW + tw + badge.height * 1.2 > BW - 2 * pad) {
          label = label.split(' ')[0];
          tw = textWidth(badge, label);
        }
        const bw = tw + badge.height * 0.7, bh = badge.height * 1.1;
        const px = bx + BW - pad - bw, py = ty + (title ? (title.height - bh) / 2 : 0);
        roundFill(px, py, bw, bh, bh / 2, sc);
        text(badge, px + (bw - tw) / 2, py + (bh - badge.height) / 2, label, hasProg ? t.panel : t.muted);
      } else if (title) {
        circle(bx + BW - pad - B * 0.06, ty + title.height / 2, B * 0.06, sc);
      }
      if (mono && hasProg) {
        // The source line the core is at (large cells only: the details come from the cell's JSON).
        const c = JSON.parse(api.cell(w, idx));
        text(mono, bx + pad, ty + title.height * 1.15, c.line ? `line ${c.line}` : `pc ${c.pc.toString(16)}`, t.muted);
      }
      // The channel bars fill the lower part of the box.
      const barsH = BH * (B >= 100 ? 0.45 : 0.46);
      let barsY = by + BH - pad - barsH;
      if (tiny && L.channels === 20) {
        barsY -= tiny.height * 0.9;
        const x0 = bx + pad, wd = BW - 2 * pad, [gx0, bw] = barX(0, x0, wd), [gx8] = barX(8, x0, wd);
        const [gx16] = barX(16, x0, wd), [gx19] = barX(19, x0, wd), ly = barsY + barsH + 2;
        // Each name under its own group, shortened or left out where it would run into the next.
        const names = [['local', 'pool 0', 'pool 1'], ['loc', 'p0', 'p1']];
        const los = [gx0, gx8, gx16], his = [gx8 - bw * 0.3, gx16 - bw * 0.3, gx19 + bw];
        for (let k = 0; k < 3; k++) {
          const n = names.map((row) => row[k]).find((s) => textWidth(tiny, s) <= his[k] - los[k]);
          if (n) textCentred(tiny, Math.trunc((los[k] + his[k]) / 2), ly, n, t.muted);
        }
      }
      drawBars(idx, bx + pad, barsY, BW - 2 * pad, barsH);
    }
  }
}

// The numbers of the columns and rows, where the cells are too small to carry theirs.
function drawRulers() {
  if (!G.rulers) return;
  const f = font('sans', G.rulerFont);
  for (const axis of [0, 1]) {
    const band = axis === 0 ? G.rulerX : G.rulerY, n = axis === 0 ? L.width : L.height;
    clip(band);
    for (let i = 0; i < n; i += G.rulerStep) {
      const num = String(i), tw = Math.trunc(G.rulerFont * 0.62 * num.length) + 2;
      if (axis === 0) {
        const mid = G.ox + i * G.pitchX + G.bw / 2, x = Math.trunc(mid) - Math.trunc(tw / 2);
        if (mid < band.x || mid > band.x + band.w) continue; // zoomed: only the numbers of columns in view
        textCentred(f, x + Math.trunc(tw / 2), band.y + Math.trunc((band.h - G.rulerFont) / 2), num, pal.theme.text);
      } else {
        const mid = G.oy + i * G.pitchY + G.bh / 2;
        if (mid < band.y || mid > band.y + band.h) continue;
        textRight(f, band.x + band.w - 4, Math.trunc(mid) - Math.trunc(G.rulerFont / 2), num, pal.theme.text);
      }
    }
    restore();
  }
}

// Zoomed in: the whole array in the grid's corner, each cell in its state colour, and a frame round the part shown
// (render.c's draw_minimap()).
function drawMinimap() {
  const mm = G.minimap;
  if (!mm) return;
  const t = pal.theme, cw = mm.w / L.width, ch = mm.h / L.height;
  fill(mm.x - 3, mm.y - 3, mm.w + 6, mm.h + 6, t.panel);
  for (let y = 0; y < L.height; y++)
    for (let x = 0; x < L.width; x++)
      fill(mm.x + cw * x, mm.y + ch * y, Math.max(cw - 1, 1), Math.max(ch - 1, 1), stateOf(y * L.width + x)[0]);
  let [x0, y0] = gridCoord(G.grid.x, G.grid.y), [x1, y1] = gridCoord(G.grid.x + G.grid.w, G.grid.y + G.grid.h);
  x0 = Math.max(x0, 0);
  y0 = Math.max(y0, 0);
  x1 = Math.min(x1, L.width);
  y1 = Math.min(y1, L.height);
  const fx = mm.x + cw * x0, fy = mm.y + ch * y0, fw = cw * (x1 - x0), fh = ch * (y1 - y0), k = Math.max(2, G.s * 2);
  fill(fx, fy, fw, k, t.selected);
  fill(fx, fy + fh - k, fw, k, t.selected);
  fill(fx, fy, k, fh, t.selected);
  fill(fx + fw - k, fy, k, fh, t.selected);
}

// The timeline where the viewer has it (panel.c's panel_draw_timeline()): the track from clock 0 to the furthest
// clock run, filled up to the clock shown, with a knob there; where the run's wait cycle closed (magenta) and where a
// failed run ended (red); the two clocks under its ends. The page's controls stand where the viewer writes its keys.
function drawTimeline(clock) {
  const t = pal.theme, b = F.bar, R = { x: 0, y: F.ch, w: F.cw, h: F.bottom };
  fill(R.x, R.y, R.w, R.h, t.panel);
  fill(R.x, R.y, R.w, 1, t.line);
  const small = font('sans', F.px(12)), span = head > 0 ? head : 1, rad = b.h / 2;
  roundFill(b.x, b.y, b.w, b.h, rad, t.slot);
  const at = b.x + b.w * clock / span, xOf = (c) => b.x + b.w * c / span;
  roundFill(b.x, b.y, at - b.x, b.h, rad, mix(t.slot, t.selected, 0.45));
  // Marks: phase switches as tall dark ticks, messages as short ones (sent orange, received blue).
  const n = api.nmarks(w), mp = api.marks(w) >> 3, marks = M.HEAPF64.subarray(mp, mp + 2 * n);
  for (let i = 0; i < n && marks[2 * i] <= head; i++) {
    const mx = xOf(marks[2 * i]), kind = marks[2 * i + 1] >>> 24;
    if (kind === E.MARK_PHASE) fill(mx - 1, b.y - 4, 2, b.h + 8, t.text);
    else fill(mx, b.y + 2, 1, b.h - 4, kind === E.MARK_SEND ? t.wait_out : t.wait_in);
  }
  if (ending && ending.since !== undefined && ending.since < head)
    fill(xOf(ending.since + 1) - 1.5, b.y - 5, 3, b.h + 10, t.cycle);
  if (ending && ending.status !== 'done') fill(xOf(head) - 1.5, b.y - 5, 3, b.h + 10, t.fault);
  circle(at, b.y + rad, rad * 1.25, t.selected);
  circle(at, b.y + rad, rad * 0.6, t.panel);
  const ly = b.y + b.h + F.px(4);
  text(small, b.x, ly, '0', t.muted);
  textRight(small, b.x + b.w, ly, `${head}${ending ? '' : ' (running)'}`, t.muted);
}

// The timeline's clock under pixel (x, y) of the canvas, or -1 when (x, y) is not on the track: render.c's
// render_timeline_at(), with as much slack round the track as it is high.
function timelineAt(x, y) {
  const b = F.bar, slack = b.h;
  if (b.w <= 0 || x < b.x - slack || x > b.x + b.w + slack || y < b.y - slack || y > b.y + b.h + slack) return -1;
  return Math.round(Math.min(Math.max((x - b.x) / b.w, 0), 1) * head);
}

// The frame: the grid at the clock (the words `frac` of the way to the next one), and the bars and the panel when
// what they show changed.
let drawn = '', draws = 0, drawMs = 0, loads = 0;
function draw(frac = 0) {
  const t0 = performance.now(), clock = api.clock(w);
  frameViews();
  const dpr = window.devicePixelRatio || 1;
  const ch = F.ch + F.bottom; // the grid, and the timeline under it
  if (canvas.width !== F.cw * dpr || canvas.height !== ch * dpr) {
    canvas.width = F.cw * dpr;
    canvas.height = ch * dpr;
    canvas.style.width = F.cw + 'px';
    canvas.style.height = ch + 'px';
  }
  g.setTransform(dpr, 0, 0, dpr, 0, 0);
  g.textBaseline = 'alphabetic';
  painted = fonted = null; // a resize resets the canvas's state
  fill(0, 0, F.cw, F.ch, pal.theme.bg);
  G = gridLayout();
  C = JSON.parse(api.cycle(w));
  // The cell a narrative paragraph turns to as the clock comes into it, before its channel's pathway is traced.
  const pick = api.narrativeSelect(w);
  if (pick >= 0) selectCell(pick);
  P = selected >= 0 && channel >= 0 ? JSON.parse(api.pathway(w, selected, channel)) : { n: 0 };
  const hops = (P.hops || []).map(([c, lc]) => `${c % L.width},${Math.floor(c / L.width)}:${lc}`).join(' ');
  if ($('traced').textContent !== hops) $('traced').textContent = hops;
  clip(G.grid);
  drawDateline();
  drawLaneFrames();
  drawLinks();
  drawWords(clock, frac);
  drawCells();
  restore();
  drawRulers();
  drawMinimap();
  drawTimeline(clock);
  flush();
  const key = `${loads} ${clock} ${selected} ${channel} ${playing} ${+$('speed').value} ${F.W}x${F.H} ${scale} ` +
    `${legendOn} ${api.status(w)}`;
  if (key !== drawn) {
    drawn = key;
    panel(clock);
  }
  draws++;
  drawMs += performance.now() - t0;
}

// --- the top bar and the side panel (panel.c's, in HTML at its sizes) ---

function esc(s) {
  return s.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]);
}

function speedLabel(v) {
  if (v <= 0) return 'full speed';
  return v >= 1000 ? `${v / 1000}k clocks/s` : `${v} clock${v === 1 ? '' : 's'}/s`;
}

// How the run ended, in the top bar's words (panel.c's end_text).
function topBarEnd() {
  const t = pal.theme, ends = { done: ['done: every cell halted', t.run], deadlock: ['DEADLOCK', t.fault],
    livelock: ['LIVELOCK', t.fault], fault: ['fault', t.fault], limit: ['clock limit', t.wait_out] };
  return ends[api.status(w)] || ['stopped', t.halted];
}

function topBar(clock) {
  const t = pal.theme, st = api.status(w), pill = $('status');
  setText($('clock'), font('bold', F.px(19)), 'clock ' + clock);
  // Play state, or how the run ended.
  const [label, c] = st === 'running' ? (playing ? ['\u25b6 ' + speedLabel(+$('speed').value), t.run]
    : ['\u275a\u275a paused', t.halted]) : topBarEnd();
  setText(pill, font('sans', F.px(16)), label);
  pill.style.background = css(c);
}

function panel(clock) {
  topBar(clock);
  const text = api.narrative(w);
  const body = font('sans', F.px(15)), paras = text.split('\n\n').filter((p) => p !== '');
  // How the run ended comes first, as in the SDL2 panel: a deadlock's report without the table of its messages (too
  // wide for the panel; `iwarp run` prints it), then the narrative.
  let end = '';
  for (const p of paras.filter((q) => q.startsWith('DEADLOCK'))) {
    const [head, ...lines] = p.split('\n');
    let table = false;
    const kept = lines.filter((l) => {
      if (l.startsWith('messages in the cycle')) table = true;
      else if (!l.startsWith(' ')) table = false;
      return !table;
    });
    end += sized('h3', font('bold', F.px(15)), head) + `<pre class="end">${esc(kept.join('\n'))}</pre>`;
  }
  // A run stopped at its clock limit: the wait cycle it is caught in, as the detector says it.
  if (C.n > 0 && C.report)
    end += sized('h3', font('bold', F.px(15)), `${topBarEnd()[0]} at clock ${clock}`) +
      `<pre class="end">${esc(C.report.replace(/\n$/, ''))}</pre>`;
  const changed = setHTML($('narrative'), end + paras.filter((p) => !p.startsWith('DEADLOCK'))
    .map((p) => sized('p', body, p.replace(/\n/g, ' '))).join(''));
  // Only what changed costs the browser a layout: while a demo plays, often only the clock.
  if (cellPanel() || changed) fitLegend();
}

// Sets an element's HTML when it differs from what it holds; returns whether it did.
const held = new Map();
function setHTML(el, html) {
  if (held.get(el) === html) return false;
  el.innerHTML = html;
  held.set(el, html);
  return true;
}

// The letter spacing that makes a paragraph as wide as SDL_ttf's whole-pixel advances make it in the viewer, so
// that it wraps where the viewer's does.
const spacings = new Map();
function spacing(f, s) {
  const key = f.css + '\n' + s;
  if (!spacings.has(key)) {
    setFont(f);
    spacings.set(key, s.length > 0 ? ((textWidth(f, s) - g.measureText(s).width) / [...s].length).toFixed(3) : 0);
  }
  return spacings.get(key);
}
// Text in HTML at the viewer's widths: an element's, or the HTML of one.
function setText(el, f, s) {
  el.textContent = s;
  el.style.letterSpacing = spacing(f, s) + 'px';
}
// Each word unbreakable: text_wrap breaks only at spaces, where browsers break after a hyphen too, and Firefox after
// a slash ("programs/demos/ conset.cset").
const sized = (tag, f, s, cls, style) => `<${tag}${cls ? ` class="${cls}"` : ''} ` +
  `style="letter-spacing:${spacing(f, s)}px;${style || ''}">` +
  `${s.split(' ').map((word) => word && `<span class="w">${esc(word)}</span>`).join(' ')}</${tag}>`;

// A line of the monospaced table, cut with "..." when wider than the panel (text_fit); `attrs`: the row's own.
function monoLine(s, cls, chip, attrs) {
  const i = chip ? `<i style="background:${css(chip)}"></i>` : '';
  return `<div class="${cls || ''}"${attrs || ''}>${i}${esc(s)}</div>`;
}

// Selects a cell (-1: none); another cell's channels are not the traced one's (the viewer's select_cell()).
function selectCell(c) {
  if (c !== selected) channel = -1;
  selected = c;
}

// The selected cell's channel in use after (step 1) or before (-1) the traced one, round through "none" (-1): the
// viewer's next_channel().
function nextChannel(step) {
  const n = L.channels;
  if (selected < 0 || n === 0) return -1;
  let at = channel >= 0 ? channel : step > 0 ? -1 : n;
  for (let k = 0; k < n; k++) {
    at = (at + step + n + 1) % (n + 1); // n + 1 places: the channels, and none
    if (at === n) return -1;
    const li = lcInfo(selected, at);
    if (li.state !== E.LC_FREE || li.count > 0) return at;
  }
  return -1;
}

// The traced pathway in words, hop by hop as the grid numbers them (panel.c's pathway_line()): where it starts,
// each channel, its head.
function pathwayText() {
  if (P.n === 0) return `Channel ${channel} is free now: no pathway to trace ([ ] or a click choose another).`;
  const row = (hop) => JSON.parse(api.cell(w, hop[0])).channels.find((r) => r.lc === hop[1]);
  const first = P.hops[0], sourceKind = (lo(lcSlot(first[0], first[1]) + E.VM_LC_ENDS) >>> 28) & 15;
  const from = sourceKind === E.END_NONE ? "a pattern's route" : sourceKind !== E.END_LINK ? row(first).source
    : P.ring ? 'round a ring' : 'where its tail has gone'; // the hops behind it are free again
  let s = `Pathway of ch ${channel}, ${P.n - 1} link${P.n === 2 ? '' : 's'}: from ${from}`;
  for (let k = 0; k < P.n; k++) {
    if (P.n > 9 && k === 4) { // long pathways: the first hops and the last ones
      s += ' \u2192 ...';
      k = P.n - 4;
    }
    const [cell, lc] = P.hops[k];
    s += ` \u2192 (${cell % L.width},${Math.floor(cell / L.width)}) ch${lc}`;
  }
  const last = P.hops[P.n - 1], r = row(last), li = lcInfo(last[0], last[1]);
  const head = li.state === E.LC_HEADER ? `its header waits here${r.wait ? ': ' + r.wait : ''}`
    : li.routeKind === E.END_NONE ? 'it ends there (no route on yet)'
      : li.routeKind === E.END_LINK ? `on to ${r.route} (${r.state})` : `into ${r.route}`;
  return `${s}; ${head}`;
}

function cellPanel() {
  $('cell').className = selected < 0 ? '' : 'selected';
  if (selected < 0) {
    return setHTML($('cell'), sized('p', font('sans', F.px(13)),
      'Click a cell for its channels, spools, links, registers and source line.', 'hint'));
  }
  const c = JSON.parse(api.cell(w, selected)), t = pal.theme;
  const [sc] = stateOf(selected);
  const heading = font('bold', F.px(15)), sans = font('sans', F.px(14));
  let h = sized('h3', heading, `Cell (${c.x},${c.y})${c.program ? '\u00a0\u00a0' + c.program : ''}`) +
    sized('div', sans, c.state, 'state', `color:${css(sc)}`);
  if (c.fault) h += sized('div', sans, c.fault, 'state', `color:${css(t.fault)}`);
  h += '<div class="mono">';
  if (c.program) {
    h += monoLine(`pc 0x${c.pc.toString(16)}${c.file ? `  ${c.file}:${c.line}` : ''}`);
    if (c.text !== undefined) h += monoLine('  ' + c.text, 'src');
  }
  h += '</div><div class="mono table">' + monoLine('ch state    route     from      n cr wait', 'muted');
  const pad = (s, n) => String(s).padEnd(n), num = (v, n) => String(v).padStart(n);
  // The traced channel first, then the channels of pathways in use, then the static routes nothing feeds (grey), as
  // the SDL2 panel orders them. A click on a row traces its channel's pathway (again: stops), as in the viewer.
  const isFed = (r) => fed[selected * L.channels + r.lc];
  const rows = [...c.channels.filter((r) => r.lc === channel),
    ...c.channels.filter((r) => r.lc !== channel && isFed(r)), ...c.channels.filter((r) => r.lc !== channel && !isFed(r))];
  const traced = ` style="background:${css(mix(t.panel, t.selected, 0.18))}"`;
  for (const r of rows)
    h += monoLine(`${num(r.lc, 2)} ${pad(r.state, 8)} ${pad(r.route, 9)} ${pad(r.source, 9)} ${r.count} ` +
      `${num(r.credits, 2)} ${r.wait}`, 'row', lcColour(selected, r.lc),
    ` data-lc="${r.lc}"${r.lc === channel ? traced : ''}`);
  if (c.channels.length === 0) h += monoLine(' (every channel free)', 'muted');
  if (channel >= 0) {
    h += '</div>' + sized('p', font('sans', F.px(13)), pathwayText(), 'path', `color:${css(P.n ? t.selected : t.muted)}`) +
      '<div class="mono">';
  }
  for (const s of c.spools)
    h += monoLine(`spool ${s.spool} ${s.mode} ${s.lc < 0 ? 'next' : 'ch' + s.lc}: ${s.left} left, ${s.moved} moved`);
  L.dir_names.forEach((d, i) => {
    if (c.links[i] > 0)
      h += monoLine(`link ${d} ${num(c.links[i], 6)} words, ${num(Math.round(util[selected * 4 + i] * 100), 3)}% now`);
  });
  h += '</div>';
  // Registers that hold something (sp only says where memory ends), a few per line as wide as the panel allows.
  if (c.program) {
    const mono = font('mono', F.px(12)), room = F.panel - 2 * F.px(18), regs = [];
    for (let r = 1; r < 124; r++) {
      const v = lo(cellBase(selected) + L.regs0 + r);
      if (v !== 0 && r !== 2) regs.push(`r${r}=${v}`);
    }
    const lines = [];
    let row = '';
    for (const one of regs) {
      const next = row ? row + '  ' + one : one;
      if (row && textWidth(mono, next) > room) {
        lines.push(row);
        row = one;
      } else {
        row = next;
      }
    }
    if (row) lines.push(row);
    h += '<div class="mono regs">' + lines.map((l) => monoLine(l, 'muted')).join('') + '</div>';
  }
  return setHTML($('cell'), h);
}

function legend() {
  const t = pal.theme, f = font('sans', F.px(13)), say = (s) => sized('span', f, s, 't');
  const sw = (c, s) => `<span><b style="background:${css(c)}"></b>${say(s)}</span>`;
  // The row of the wait cycle's frame, while one is outlined; its words shortened where they would not fit.
  const col = Math.floor((F.panel - 2 * F.px(18)) / 3), long = 'wait cycle: each waits for the next';
  const cycleWhat = f.height + textWidth(f, long) > 2 * col - F.px(6) ? 'wait cycle' : long;
  const bars = [0, 1, 2, 3].map((i) => {
    const c = pathColour(i + 1), back = i === 0 ? t.slot : mix(t.cell, c, 0.28);
    return `<b style="background:linear-gradient(to top, ${css(c)} ${i * 100 / 3}%, ${css(back)} 0)"></b>`;
  }).join('');
  const utilGrad = [0, 0.5, 1].map((u) => css(utilColour(u))).join(',');
  $('legend').innerHTML = sized('h3', font('bold', F.px(15)), 'Legend') + '<div class="states">' +
    [sw(t.run, 'running'), sw(t.wait_in, 'waits: input'), sw(t.wait_out, 'waits: output'), sw(t.halted, 'halted'),
      sw(t.fault, 'fault'), sw(t.idle, 'no program')].join('') +
    `<span id="legend-cycle"><b class="frame" style="border-color:${css(t.cycle)}"></b>${say(cycleWhat)}</span>` +
    `<span id="legend-path"></span></div>` +
    `<div class="sample"><span class="bars">${bars}</span>${say('a bar per logical channel: words queued (0-8)')}</div>` +
    `<div class="sample"><span class="caps"><b style="border-top-color:${css(t.text)}"></b>` +
    `<b style="border-top-color:${css(t.muted)}"></b></span>${say('cap: header setting up / draining')}</div>` +
    '<div id="legend-more">' + sized('p', f, 'Colour = one pathway, the same on every cell and link it crosses. ' +
      'With 20 channels the bars come in three groups: local (0-7), pool 0 (8-15), pool 1 (16-19).') +
    `<div class="sample"><span class="wide" style="background:linear-gradient(to right, ${utilGrad})"></span>` +
    `${say('link use 0% - 100% (last 32 clocks)')}</div>` +
    `<div class="sample"><span class="wide"><b class="dot" style="background:${css(pathColour(1))};` +
    `border-color:${css(t.text)}"></b></span>${say('a word on the wire')}</div>` +
    `<div class="sample"><span class="wide dash"></span>${say('dateline: the wrap-around links')}</div></div>`;
}

// The legend gives way to the panel's content, as the SDL2 panel's does: whole when both fit, else its first rows,
// else not at all.
function fitLegend() {
  const p = $('panel'), more = $('legend-more'), lg = $('legend');
  lg.hidden = !legendOn;
  if (!legendOn) return;
  more.hidden = false;
  // The row of what the grid outlines: the wait cycle in its first two columns, the traced pathway after it (or
  // from the start, in more words, alone).
  const tracing = selected >= 0 && channel >= 0, outlines = C.n > 0 || tracing;
  const extra = outlines ? font('sans', F.px(13)).height + F.px(2) : 0, path = $('legend-path');
  $('legend-cycle').hidden = !(C.n > 0);
  path.hidden = !tracing;
  path.className = C.n > 0 ? '' : 'alone';
  setHTML(path, `<b class="frame" style="border-color:${css(pal.theme.selected)}"></b>` + sized('span',
    font('sans', F.px(13)), C.n > 0 ? 'traced pathway' : 'traced pathway (numbered hops)', 't'));
  lg.style.height = F.legendFull + extra + 'px';
  if (p.scrollHeight > p.clientHeight) {
    more.hidden = true;
    lg.style.height = F.legendShort + extra + 'px';
  }
  if (p.scrollHeight > p.clientHeight) lg.hidden = true;
}

// --- loading, playing ---

function showError(msg) {
  $('error').hidden = !msg;
  $('error').textContent = msg || '';
}

// What the emulator writes on stderr (an assembler's diagnostics) since the last load, for the error it shows.
let said = [];

function loaded(rc) {
  if (rc !== 0) {
    showError([api.error(w) || 'the demo did not load', ...said].join('\n'));
    said = [];
    return false;
  }
  said = [];
  showError('');
  loads++;
  head = 0;
  ending = null;
  L = JSON.parse(api.layout(w));
  E = L.enum;
  selected = L.select;
  channel = -1;
  setText($('title'), font('bold', F.px(21)), L.title);
  setSpeed(L.speed > 0 ? L.speed : 20);
  draw();
  return true;
}

function loadDemo(name) {
  setPlaying(false);
  return loaded(api.load(w, name));
}

// A demo of one's own (docs/demos.md, "Writing a demo"): what the dialog's Load button and ?own= load.
// The dialog's boxes: its Load button, and ?own=, load what they hold.
function loadBoxes() {
  setPlaying(false);
  const name = $('own-name').value;
  if (!loaded(api.loadText(w, name, $('own-txt').value, $('own-run').value, $('own-s').value))) return false;
  // In the picker as the demos are, so that Reset and Home start it again (iwarp_web_load's "user:NAME").
  const sel = $('demo'), value = 'user:' + name;
  if (![...sel.options].some((o) => o.value === value)) sel.add(new Option(`${L.title} (your own)`, value));
  sel.value = value;
  return true;
}

// ?own=PATH/NAME: NAME.txt, NAME.run and NAME.s fetched from beside the page into the dialog's boxes, then loaded
// as its Load button loads them (a demo of one's own on a course site: iwarp demo FOLDER/NAME.txt --web DIR).
async function fetchOwn(base) {
  const get = async (ext) => {
    const r = await fetch(`${base}.${ext}`);
    if (!r.ok) throw new Error(`${base}.${ext}: ${r.status} ${r.statusText}`);
    return r.text();
  };
  const [txt, run, s] = await Promise.all(['txt', 'run', 's'].map(get));
  $('own-name').value = base.split('/').pop();
  $('own-txt').value = txt;
  $('own-run').value = run;
  $('own-s').value = s;
  return loadBoxes();
}

function setSpeed(v) {
  const sel = $('speed');
  if (![...sel.options].some((o) => +o.value === v)) sel.add(new Option(String(v)));
  sel.value = String(v);
}

// After the clock moved: the timeline's head, and how the run ended when it ended there.
function moved() {
  const clock = api.clock(w);
  if (clock < head) return;
  head = clock;
  const st = api.status(w);
  if (st === 'running') {
    ending = null;
  } else {
    const cy = JSON.parse(api.cycle(w));
    ending = { status: st, since: cy.n > 0 ? cy.since : undefined };
  }
}

// Goes to a clock, backwards too (iwarp_web_seek: the demo built again and run there), and draws it.
function goTo(clock) {
  if (api.seek(w, Math.max(clock, 0)) < 0) showError(api.error(w) || 'the demo did not build again');
  moved();
  draw();
}

function speedBy(k) {
  const sel = $('speed'), i = Math.min(Math.max(sel.selectedIndex + k, 0), sel.options.length - 1);
  sel.selectedIndex = i;
  topBar(api.clock(w));
}

function setPlaying(on) {
  playing = on;
  owed = 0;
  $('play').textContent = on ? 'Pause' : 'Play';
}

let frames = 0, scrubTo = null;
// What the left button is dragging since it went down: the timeline ({scrub}), or the grid ({x0, y0, vx0, vy0,
// panned}): a pan when zoomed and moved more than 4 pixels, else a click that selects the cell.
let drag = null;
function tick(now) {
  frames++;
  // Scrubbing: one seek a frame, to where the pointer is by then.
  if (scrubTo !== null) {
    goTo(scrubTo);
    scrubTo = null;
  }
  if (playing && !(drag && drag.scrub)) {
    const speed = +$('speed').value;
    let n = 0;
    if (speed === 0) {
      n = fullSpeed();
    } else {
      // At most a quarter of a second a frame: a page that cannot keep up plays slower, as the SDL2 view does.
      owed += Math.min(lastTick === null ? 0 : (now - lastTick) / 1000, 0.25) * speed;
      n = Math.floor(owed);
      if (n > 0) {
        owed -= n;
        api.step(w, n);
      }
    }
    if (n > 0) moved();
    if (api.status(w) !== 'running') setPlaying(false);
    // At 20 clocks per second or slower the words glide between clocks, as in the SDL2 view: every frame is drawn.
    const glide = playing && speed > 0 && speed <= 20;
    if (n > 0 || glide) draw(glide ? owed : 0);
  }
  if (rateOn) frameRate(now);
  lastTick = now;
  requestAnimationFrame(tick);
}

// Full speed: the emulator runs for what the frame leaves for it (the viewer's MIN_EMULATE_S and more; a frame
// is 1/60 s), in runs of clocks sized so that each takes a millisecond or two: a 32x32 array's clock costs a
// thousand times a 1x1's.
let fullChunk = 16;
function fullSpeed() {
  const t0 = performance.now();
  let n = 0;
  while (performance.now() - t0 < 8 && api.status(w) === 'running') {
    const t1 = performance.now();
    api.step(w, fullChunk);
    n += fullChunk;
    const took = performance.now() - t1;
    if (took < 1) fullChunk = Math.min(fullChunk * 2, 1 << 20);
    else if (took > 3 && fullChunk > 1) fullChunk >>= 1;
  }
  return n;
}

// R: frames and clocks per second in the top bar, measured over half a second as the viewer measures them.
let rate = null;
function frameRate(now) {
  const clock = api.clock(w);
  if (rate === null) rate = { t: now, frames, clock };
  if (now - rate.t < 500) return;
  const s = (now - rate.t) / 1000;
  $('rate').textContent = `${((frames - rate.frames) / s).toFixed(0)} fps  ${g3(Math.max(clock - rate.clock, 0) / s)} clocks/s`;
  rate = { t: now, frames, clock };
}
// C's "%.3g".
function g3(v) {
  if (v === 0) return '0';
  const e = Math.floor(Math.log10(Math.abs(v)));
  const strip = (t) => t.includes('.') ? t.replace(/\.?0+$/, '') : t;
  if (e < -4 || e >= 3) {
    const [m, x] = v.toExponential(2).split('e');
    return `${strip(m)}e${x[0] === '-' ? '-' : '+'}${String(Math.abs(+x)).padStart(2, '0')}`;
  }
  return strip(v.toPrecision(3));
}

// ?fps=S: plays for S seconds (at ?speed=N, else the demo's speed) and writes into #fps how many frames the browser
// showed (requestAnimationFrame's calls), how many the page drew and at what cost, and how many clocks ran
// (docs/web.md measures the page so on 8x8).
function measureFps(seconds) {
  if (params.has('speed')) setSpeed(+params.get('speed'));
  const f0 = frames, d0 = draws, ms0 = drawMs, c0 = api.clock(w), t0 = performance.now();
  setPlaying(true);
  setTimeout(() => {
    const t = (performance.now() - t0) / 1000, f = frames - f0, d = draws - d0, c = api.clock(w) - c0;
    setPlaying(false);
    $('fps').textContent = `fps ${(f / t).toFixed(1)} frames ${f} seconds ${t.toFixed(2)} draws ${d} ` +
      `draws/s ${(d / t).toFixed(1)} ms/draw ${(d ? (drawMs - ms0) / d : 0).toFixed(2)} clocks ${c} ` +
      `clocks/s ${(c / t).toFixed(1)} speed ${$('speed').value}`;
  }, seconds * 1000);
}

function togglePlay() {
  if (!playing && api.status(w) !== 'running') goTo(0); // at the end of the run: play again from the start
  setPlaying(!playing);
  panel(api.clock(w));
}

function stepBy(k) {
  setPlaying(false);
  goTo(api.clock(w) + k);
}

function canvasXY(ev) {
  const r = canvas.getBoundingClientRect();
  return [ev.clientX - r.left, ev.clientY - r.top];
}
const inGrid = (x, y) => x >= G.grid.x && x < G.grid.x + G.grid.w && y >= G.grid.y && y < G.grid.y + G.grid.h;

function cellAt(ev) {
  const [x, y] = canvasXY(ev);
  const fx = (x - G.ox) / G.pitchX, fy = (y - G.oy) / G.pitchY;
  if (fx < 0 || fy < 0 || fx >= L.width || fy >= L.height) return -1;
  if ((fx - Math.floor(fx)) * G.pitchX > G.bw || (fy - Math.floor(fy)) * G.pitchY > G.bh) return -1;
  return Math.floor(fy) * L.width + Math.floor(fx);
}

// --- the viewer's keys the page has (tools/view/input.c) ---

// The help's rows: the viewer's words (input.c's help table) where the page does the same; Q (quit) is not here,
// a page is closed as any other.
const KEYS = [
  ['Space', 'play / pause'],
  ['\u2192  or  .', 'one clock on (pauses)'],
  ['\u2190  or  ,', 'one clock back (pauses)'],
  ['\u2191 \u2193  or  wheel', 'faster / slower (1 clock/s to full speed)'],
  ['+  -', 'larger / smaller text, for a projector'],
  ['F', 'full speed, and back'],
  ['PgUp  PgDn', '100 clocks back / on'],
  ['Home  End', 'start / end of the run'],
  ['P  N', 'previous / next mark (phase, message)'],
  ['timeline', 'click or drag to scrub'],
  ['click a cell', 'its channels, registers, source line'],
  ['[  ]  or  Tab', 'trace the pathway of a channel'],
  ['I  O  0', 'zoom in / out / the whole array'],
  ['wheel, drag', 'on the grid: zoom at the pointer, pan'],
  ['L', 'legend on / off'],
  ['R', 'frame rate on / off'],
  ['S', 'screenshot: iwarp-view-CLOCK.png'],
  ['H  or  ?', 'this help;  Esc closes it'],
];

// The help at panel.c's sizes: its box px(560) wide, px(80) and a row per key high, made smaller when the window is
// not that high (panel_draw_help()).
function showHelp(on) {
  help = on;
  const el = $('help');
  el.hidden = !on;
  if (!on) return;
  let t = F.t;
  const need = t * (80 + KEYS.length * (15 * 1.2 + 6)), room = F.H * 0.96;
  if (need > room) t = t * room / need;
  const px = (v) => Math.floor(v * t + 0.5), st = el.style, c = pal.theme.text;
  for (const n of [6, 14, 20, 28, 40, 182, 560]) st.setProperty('--h' + n, px(n) + 'px');
  for (const [n, face] of [[20, 'bold'], [15, 'sans']]) {
    st.setProperty('--hf' + n, font(face, px(n)).size + 'px');
    st.setProperty('--hl' + n, font(face, px(n)).height + 'px');
  }
  st.background = `rgba(${c[0]},${c[1]},${c[2]},${(90 / 255).toFixed(3)})`;
  setHTML($('help-keys'), KEYS.map(([k, what]) => `<dt>${esc(k)}</dt><dd>${esc(what)}</dd>`).join(''));
}

// P and N: the previous / next mark on the timeline (the viewer's mark_jump()).
function markJump(forward) {
  const n = api.nmarks(w), mp = api.marks(w) >> 3, marks = M.HEAPF64.subarray(mp, mp + 2 * n), clock = api.clock(w);
  let to = -1;
  for (let i = 0; i < n; i++) {
    const c = marks[2 * i];
    if (forward ? c > clock && (to < 0 || c < to) : c < clock && c > to) to = c;
  }
  if (to >= 0) goTo(to);
}

// F: full speed, and back to the speed before; full speed plays.
function toggleFull() {
  const sel = $('speed');
  if (+sel.value === 0) {
    sel.value = speedBeforeFull !== null ? speedBeforeFull : '20';
  } else {
    speedBeforeFull = sel.value;
    sel.value = '0';
    if (!playing) setPlaying(true);
  }
  topBar(api.clock(w));
}

// + and -: text and panels larger or smaller in quarter steps from 1 to 4, as the viewer's --scale.
function setScale(u) {
  scale = Math.min(Math.max(u, 1), MAX_SCALE);
  relayout();
}

function relayout() {
  frameLayout();
  legend();
  draw();
  fitLegend();
  if (help) showHelp(true);
}

// S: the canvas (the grid and the timeline) as a PNG, named as the viewer names its screenshots.
function screenshot() {
  const name = `iwarp-view-${api.clock(w)}.png`;
  canvas.toBlob((blob) => {
    const a = document.createElement('a');
    a.href = URL.createObjectURL(blob);
    a.download = name;
    a.click();
    setTimeout(() => URL.revokeObjectURL(a.href), 1000);
    // What a test reads, as the viewer's --log says "shot=PATH".
    document.body.dataset.shot = `${name} ${blob.size}`;
  }, 'image/png');
}

async function main() {
  frameLayout();
  M = await IwarpModule({ printErr: (line) => said.push(line) });
  api = wrapApi(M);
  w = api.create();
  const p = JSON.parse(api.palette(w));
  pal = { theme: {}, paths: p.paths.map(rgb) };
  for (const k in p.theme) pal.theme[k] = rgb(p.theme[k]);
  const root = document.documentElement.style;
  for (const k in pal.theme) root.setProperty('--c-' + k, css(pal.theme[k]));
  root.setProperty('--c-dateline', css(mix(pal.theme.fault, pal.theme.bg, 0.35)));
  const demos = JSON.parse(api.demos(w));
  for (const d of demos) $('demo').add(new Option(d.title, d.name));
  const first = params.get('demo') || (demos.length ? demos[0].name : '');
  $('demo').value = first;
  legend();
  if (!(params.has('own') ? await fetchOwn(params.get('own')) : loadDemo(first))) return;
  // How long the page took to show its first frame (docs/web.md measures it so).
  document.body.dataset.readyMs = Math.round(performance.now());
  // ?run=N: runs to clock N at once (what tests/web asks for), and says the clock and the state hash.
  // ?zoom=Z&center=X,Y: as the viewer's --zoom Z --center X,Y (the middle of cell (X,Y) in the middle of the grid).
  if (params.has('zoom')) Z.zoom = Math.min(Math.max(+params.get('zoom') || 1, 1), MAX_ZOOM);
  // ?select=X,Y&channel=N: as the viewer's --select X,Y --channel N (the narrative's selections take over as the
  // clock moves, as there); ?scale=N as --scale N; ?legend=0 as --no-legend; ?help=1 as --help-overlay.
  if (params.has('select')) {
    const [sx, sy] = params.get('select').split(',').map(Number);
    if (sx >= 0 && sx < L.width && sy >= 0 && sy < L.height) {
      selectCell(sy * L.width + sx);
      const lc = params.has('channel') ? +params.get('channel') : -1;
      channel = Number.isInteger(lc) && lc >= 0 && lc < L.channels ? lc : -1;
    }
  }
  if (params.has('scale')) scale = Math.min(Math.max(+params.get('scale') || 1, 1), MAX_SCALE);
  if (params.get('legend') === '0') legendOn = false;
  if (scale !== 1 || !legendOn) relayout();
  if (params.get('help') === '1') showHelp(true);
  if (params.has('center') && Z.zoom > 1) {
    const [cx, cy] = params.get('center').split(',').map(Number);
    Z.vx = cx + 0.5;
    Z.vy = cy + 0.5;
  }
  // ?run=N: runs to clock N at once (what tests/web asks for), and says the clock and the state hash; with &back=M,
  // then goes back to clock M, as scrubbing back does, and says them there.
  if (params.has('run')) {
    api.step(w, +params.get('run'));
    moved();
    if (params.has('back')) goTo(+params.get('back'));
    draw();
    $('result').textContent = `clock ${api.clock(w)} hash ${api.hash(w)} status ${api.status(w)}`;
  }
  if (params.has('fps')) measureFps(+params.get('fps'));
  $('demo').onchange = () => loadDemo($('demo').value);
  $('play').onclick = togglePlay;
  $('back').onclick = () => stepBy(-1);
  $('step').onclick = () => stepBy(1);
  $('reset').onclick = () => goTo(0);
  $('speed').onchange = () => topBar(api.clock(w));
  // The mouse as the viewer's: the timeline scrubs, the grid pans when zoomed or selects a cell, the wheel zooms
  // over the grid (at the pointer) and changes the speed elsewhere.
  canvas.onmousedown = (ev) => {
    if (ev.button !== 0) return;
    const [x, y] = canvasXY(ev), at = timelineAt(x, y);
    if (at >= 0) {
      drag = { scrub: true };
      scrubTo = at;
    } else if (inGrid(x, y)) {
      drag = { x0: x, y0: y, vx0: G.vx, vy0: G.vy, panned: false };
    }
    ev.preventDefault();
  };
  window.onmousemove = (ev) => {
    if (!drag) return;
    const [x, y] = canvasXY(ev);
    if (drag.scrub) {
      const at = timelineAt(x, y);
      if (at >= 0) scrubTo = at;
    } else if (Z.zoom > 1 && (drag.panned || Math.abs(x - drag.x0) + Math.abs(y - drag.y0) > 4)) {
      Z.vx = drag.vx0 - (x - drag.x0) / G.pitchX;
      Z.vy = drag.vy0 - (y - drag.y0) / G.pitchY;
      drag.panned = true; // a drag: the button's release selects nothing
      draw();
    }
  };
  window.onmouseup = (ev) => {
    if (drag && !drag.scrub && !drag.panned) {
      const c = cellAt(ev);
      if (c >= 0) {
        selectCell(c === selected ? -1 : c);
        draw();
      }
    }
    drag = null;
  };
  canvas.addEventListener('wheel', (ev) => {
    const [x, y] = canvasXY(ev), k = ev.deltaY < 0 ? 1 : ev.deltaY > 0 ? -1 : 0;
    if (k === 0) return;
    if (inGrid(x, y)) zoomBy(k > 0 ? 1.25 : 0.8, x, y);
    else speedBy(k);
    ev.preventDefault();
  }, { passive: false });
  // The viewer's keys (docs/viewer.md, "Keys and mouse"), those the page has (all but Q).
  document.onkeydown = (ev) => {
    if (ev.target.tagName === 'TEXTAREA' || ev.target.tagName === 'INPUT' || $('own').open) return;
    if (ev.ctrlKey || ev.metaKey || ev.altKey) return; // the browser's own (Ctrl+0 its zoom, Ctrl+S its save)
    const k = ev.key.length === 1 ? ev.key.toLowerCase() : ev.key, clock = api.clock(w);
    if (k === 'h' || k === '?' || k === '/' || k === 'F1') showHelp(!help);
    else if (k === 'Escape') { // the help first, then the traced pathway, then the selection
      if (help) showHelp(false);
      else if (channel >= 0) channel = -1;
      else selectCell(-1);
      draw();
    } else if (k === ' ' || k === 'Enter') togglePlay();
    else if (k === 'ArrowRight' || k === '.') stepBy(1);
    else if (k === 'ArrowLeft' || k === ',') stepBy(-1);
    else if (k === 'PageUp') goTo(Math.max(clock - JUMP_CLOCKS, 0));
    else if (k === 'PageDown') goTo(clock + JUMP_CLOCKS);
    else if (k === 'Home') goTo(0);
    else if (k === 'End') goTo(head);
    else if (k === 'ArrowUp') speedBy(1);
    else if (k === 'ArrowDown') speedBy(-1);
    else if (k === 'p' || k === 'n') markJump(k === 'n');
    else if (k === ']' || k === '[' || k === 'Tab') {
      channel = nextChannel(k === '[' || (k === 'Tab' && ev.shiftKey) ? -1 : 1);
      draw();
    } else if (k === 'l') {
      legendOn = !legendOn;
      fitLegend();
    } else if (k === 'f') toggleFull();
    else if (k === '+' || k === '=') setScale(scale + 0.25); // = is + without Shift, as in the viewer
    else if (k === '-') setScale(scale - 0.25);
    else if (k === 'r') {
      rateOn = !rateOn;
      rate = null;
      $('rate').hidden = !rateOn;
      $('rate').textContent = '';
    } else if (k === 's') screenshot();
    else if (k === 'i') zoomBy(1.5);
    else if (k === 'o') zoomBy(1 / 1.5);
    else if (k === '0') {
      Z.zoom = 1;
      Z.vx = Z.vy = -1;
      draw();
    } else return;
    ev.preventDefault();
  };
  $('own-open').onclick = () => $('own').showModal();
  $('help-open').onclick = () => showHelp(!help);
  $('help').onclick = () => showHelp(false);
  // A row of the channel table: trace that channel's pathway, or stop (the viewer's render_channel_at()).
  $('cell').onclick = (ev) => {
    const row = ev.target.closest('[data-lc]');
    if (!row) return;
    const lc = +row.dataset.lc;
    channel = lc === channel ? -1 : lc;
    draw();
  };
  $('own-load').onclick = loadBoxes;
  window.onresize = relayout;
  requestAnimationFrame(tick);
}

main().catch((e) => showError(String(e)));
