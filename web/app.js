// The teaching demos in a browser (docs/web.md): the emulator runs as WebAssembly (web/iwarp_web.c), this draws
// the view model it keeps, as tools/view/render.c draws it in the SDL2 view: the same colours (palette.def, read
// from the module), the same layout rules, the same bars, lanes, stripes and words on the wire.
'use strict';

const UTIL_WINDOW = 32;
const params = new URLSearchParams(location.search);
const $ = (id) => document.getElementById(id);

let M, api, w, pal, L, E; // module, wrapped API, context, palette, layout, enums
let playing = false, selected = -1, lastTick = 0, owed = 0;

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
  };
}

// --- colours (render.c's color_mix and theme) ---

function rgb(hex) {
  const v = parseInt(hex.slice(1), 16);
  return [v >> 16, (v >> 8) & 255, v & 255];
}
function mix(a, b, t) {
  return [0, 1, 2].map((i) => Math.round(a[i] + (b[i] - a[i]) * t));
}
const css = (c) => `rgb(${c[0]},${c[1]},${c[2]})`;
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

// --- layout (render.c's layout(), the grid part) ---

function layout(cw, chh) {
  const s = Math.min(Math.max(Math.min(cw / 880, chh / 600), 0.6), 2.0);
  const fit = (len, n) => Math.min(len / (n + 0.5), 260 * s);
  const pad = 10 * s, gw = cw - 2 * pad, gh = chh - 2 * pad;
  const px = fit(gw, L.width), py = fit(gh, L.height), small = Math.min(px, py);
  const gap = small * (small > 150 * s ? 0.32 : 0.28);
  let bw = px - gap, bh = py - gap;
  bw = Math.min(bw, bh * 1.3);
  bh = Math.min(bh, bw * 1.3);
  const pitchX = bw + gap, pitchY = bh + gap;
  return {
    s, gap, bw, bh, pitchX, pitchY,
    ox: pad + gw / 2 - (L.width / 2) * pitchX + gap / 2,
    oy: pad + gh / 2 - (L.height / 2) * pitchY + gap / 2,
  };
}

// --- drawing ---

const canvas = $('grid'), g = canvas.getContext('2d');
let G; // the last frame's layout, for clicks

function fill(x, y, wd, ht, c) {
  g.fillStyle = css(c);
  g.fillRect(x, y, wd, ht);
}
function roundRect(x, y, wd, ht, r, c) {
  g.fillStyle = css(c);
  g.beginPath();
  g.roundRect ? g.roundRect(x, y, wd, ht, r) : g.rect(x, y, wd, ht);
  g.fill();
}
function circle(x, y, r, c) {
  g.fillStyle = css(c);
  g.beginPath();
  g.arc(x, y, r, 0, 2 * Math.PI);
  g.fill();
}
function arrowhead(x, y, dx, dy, len, width, c) {
  g.fillStyle = css(c);
  g.beginPath();
  g.moveTo(x, y);
  g.lineTo(x - dx * len - dy * width / 2, y - dy * len - dx * width / 2);
  g.lineTo(x - dx * len + dy * width / 2, y - dy * len + dx * width / 2);
  g.fill();
}

// One directed lane (render.c's lane()): utilization band, pathway stripes, arrowhead, the word in flight.
function lane(x0, y0, x1, y1, band, u, paths, busy, word, wordColour, from, to, head) {
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
    arrowhead(x1, y1, horiz ? sx : 0, horiz ? 0 : sy, arrow, hb + 2, uc);
  }
  if (word >= from && word < to) {
    const t = (word - from) / (to - from), rad = Math.min(Math.max(3, band * 0.5), band * 0.3 + 4);
    circle(x0 + (x1 - x0) * t, y0 + (y1 - y0) * t, rad + 1.5, pal.theme.text);
    circle(x0 + (x1 - x0) * t, y0 + (y1 - y0) * t, rad, wordColour);
  }
}

function wordPos(idx, d, clock) {
  const sent = lo(linkSlot(idx, d) + E.VM_LINK_SENT);
  if (sent === 0 || clock < sent) return -1;
  const p = (clock - sent + 0.5) / L.hop_latency;
  return p >= 1 ? -1 : p;
}

function drawLinks(clock) {
  const band = Math.min(Math.max(Math.min(G.gap * 0.32, Math.min(G.bw, G.bh) * 0.17), 3), 24 * G.s);
  const stub = G.gap * 0.9;
  for (let y = 0; y < L.height; y++) {
    for (let x = 0; x < L.width; x++) {
      const idx = y * L.width + x, bx = G.ox + x * G.pitchX, by = G.oy + y * G.pitchY;
      for (let d = 0; d < 4; d++) {
        const horiz = d === E.DIR_PX || d === E.DIR_MX, size = horiz ? L.width : L.height;
        const ls = linkSlot(idx, d);
        if (size === 1 && lo(ls + E.VM_LINK_WORDS) === 0 && hi(ls + E.VM_LINK_WORDS) === 0) continue;
        const paths = [], busy = [];
        for (let lc = 0; lc < L.channels; lc++) {
          const li = lcInfo(idx, lc);
          if ((li.state === E.LC_ROUTED || li.state === E.LC_DRAINING) && li.routeKind === E.END_LINK &&
              li.routeDir === d) {
            busy.push(li.count !== 0);
            paths.push(lcColour(idx, lc));
          }
        }
        const u = util[idx * 4 + d], word = wordPos(idx, d, clock);
        const wc = pathColour(lcInfo(idx, lo(ls + E.VM_LINK_LC) % L.channels).path);
        const side = (d === E.DIR_PX || d === E.DIR_MY) ? 0.36 : 0.64;
        const pos = horiz ? by + G.bh * side : bx + G.bw * (1 - side);
        const positive = d === E.DIR_PX || d === E.DIR_PY, coord = horiz ? x : y;
        const wraps = positive ? coord === size - 1 : coord === 0;
        const start = horiz ? (positive ? bx + G.bw : bx) : (positive ? by + G.bh : by), sign = positive ? 1 : -1;
        const ln = (a, b, from, to, head) => horiz ? lane(a, pos, b, pos, band, u, paths, busy, word, wc, from, to, head)
          : lane(pos, a, pos, b, band, u, paths, busy, word, wc, from, to, head);
        if (!wraps) {
          ln(start, start + sign * G.gap, 0, 1, true);
        } else {
          const far = horiz ? (positive ? G.ox : G.ox + (size - 1) * G.pitchX + G.bw)
            : (positive ? G.oy : G.oy + (size - 1) * G.pitchY + G.bh);
          ln(start, start + sign * stub, 0, 0.5, false);
          ln(far - sign * stub, far, 0.5, 1, true);
        }
      }
    }
  }
}

function drawDateline() {
  const c = mix(pal.theme.fault, pal.theme.bg, 0.35);
  const x0 = G.ox - G.gap * 0.95, y0 = G.oy - G.gap * 0.95;
  const x1 = G.ox + L.width * G.pitchX - G.gap * 0.05, y1 = G.oy + L.height * G.pitchY - G.gap * 0.05;
  g.strokeStyle = css(c);
  g.lineWidth = Math.max(1.5, G.s * 2);
  const dash = Math.max(6, 8 * G.s);
  g.setLineDash([dash, dash]);
  g.strokeRect(x0, y0, x1 - x0, y1 - y0);
  g.setLineDash([]);
}

function barX(lc, x0, wd) {
  const grouped = L.channels === 20, unit = wd / (L.channels + (grouped ? 1.6 : 0));
  const gp = grouped ? (lc >= 8 ? 0.8 : 0) + (lc >= 16 ? 0.8 : 0) : 0;
  return [x0 + unit * (lc + gp) + unit * 0.11, unit * 0.78];
}

function drawCells() {
  const t = pal.theme, B = Math.min(G.bw, G.bh);
  const titleSize = Math.min(Math.max(B * 0.13, 9), Math.min(19 * G.s, B * 0.2));
  for (let y = 0; y < L.height; y++) {
    for (let x = 0; x < L.width; x++) {
      const idx = y * L.width + x, bx = G.ox + x * G.pitchX, by = G.oy + y * G.pitchY;
      const [sc, label] = stateOf(idx), border = Math.max(2, B * 0.035), radius = B * 0.08;
      if (idx === selected)
        roundRect(bx - border * 1.6, by - border * 1.6, G.bw + border * 3.2, G.bh + border * 3.2, radius + border * 1.6,
          t.selected);
      roundRect(bx, by, G.bw, G.bh, radius, sc);
      roundRect(bx + border, by + border, G.bw - 2 * border, G.bh - 2 * border, Math.max(radius - border, 0), t.cell);
      const pad = B * 0.07 + border, ty = by + pad * 0.8;
      let titleW = 0;
      if (B >= 34) {
        g.font = `bold ${Math.round(titleSize)}px "DejaVu Sans", sans-serif`;
        g.textBaseline = 'top';
        g.fillStyle = css(t.text);
        titleW = g.measureText(`(${x},${y})`).width;
        g.fillText(`(${x},${y})`, bx + pad, ty);
      }
      if (B >= 70) {
        const fs = Math.max(titleSize * 0.8, 8);
        g.font = `${Math.round(fs)}px "DejaVu Sans", sans-serif`;
        let text = label, tw = g.measureText(text).width;
        // "out go0" when there is room, "out" when not.
        if (titleW + tw + fs * 1.2 > G.bw - 2 * pad) {
          text = label.split(' ')[0];
          tw = g.measureText(text).width;
        }
        const bw = tw + fs * 0.7, bh = fs * 1.1;
        const px = bx + G.bw - pad - bw, py = ty + (titleSize - bh) / 2;
        roundRect(px, py, bw, bh, bh / 2, sc);
        g.fillStyle = css(L.has_program[idx] ? t.panel : t.muted);
        g.fillText(text, px + (bw - tw) / 2, py + (bh - fs) / 2);
      }
      if (B >= 100 && L.has_program[idx]) {
        // The source line the core is at (a few large cells only: the details come from the cell's JSON).
        const c = JSON.parse(api.cell(w, idx));
        g.font = `${Math.round(Math.max(titleSize * 0.78, 8))}px "DejaVu Sans Mono", monospace`;
        g.fillStyle = css(t.muted);
        g.fillText(c.line ? `line ${c.line}` : `pc ${c.pc.toString(16)}`, bx + pad, ty + titleSize * 1.15);
      }
      // The channel bars fill the lower part of the box.
      const barsH = G.bh * (B >= 100 ? 0.45 : 0.46), barsY = by + G.bh - pad - barsH, x0 = bx + pad, wd = G.bw - 2 * pad;
      for (let lc = 0; lc < L.channels; lc++) {
        const li = lcInfo(idx, lc), [bxx, bw] = barX(lc, x0, wd);
        if (li.state === E.LC_FREE && li.count === 0) {
          fill(bxx, barsY, bw, barsH, t.slot);
          continue;
        }
        const c = lcColour(idx, lc);
        fill(bxx, barsY, bw, barsH, mix(t.cell, c, 0.28));
        const f = barsH * Math.min(li.count, L.queue_depth) / L.queue_depth;
        fill(bxx, barsY + barsH - f, bw, f, c);
        if (li.state === E.LC_HEADER || li.state === E.LC_DRAINING || li.state === E.LC_ARRIVED) {
          const cap = Math.max(2, barsH * 0.06);
          fill(bxx - 1, barsY - cap, bw + 2, cap, li.state === E.LC_HEADER ? t.text : t.muted);
        }
      }
    }
  }
}

function draw() {
  const clock = api.clock(w);
  frameViews();
  const rect = canvas.getBoundingClientRect(), dpr = window.devicePixelRatio || 1;
  const cw = Math.max(320, Math.round(rect.width)), chh = Math.max(240, Math.round(cw * 0.68));
  if (canvas.width !== cw * dpr || canvas.height !== chh * dpr) {
    canvas.width = cw * dpr;
    canvas.height = chh * dpr;
    canvas.style.height = chh + 'px';
  }
  g.setTransform(dpr, 0, 0, dpr, 0, 0);
  g.fillStyle = css(pal.theme.bg);
  g.fillRect(0, 0, cw, chh);
  G = layout(cw, chh);
  drawDateline();
  drawLinks(clock);
  drawCells();
  panel(clock);
}

// --- the side panel ---

function esc(s) {
  return s.replace(/[&<>]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;' })[c]);
}

function panel(clock) {
  $('clock').textContent = 'clock ' + clock;
  const st = api.status(w);
  $('status').textContent = st === 'running' ? (playing ? 'playing' : 'paused') : st.toUpperCase();
  $('status').className = st === 'running' || st === 'done' ? '' : 'ended';
  const pick = api.narrativeSelect(w);
  if (pick >= 0) selected = pick;
  const text = api.narrative(w);
  $('narrative').innerHTML = text.split('\n\n').map((p) =>
    p.startsWith('DEADLOCK') ? `<pre>${esc(p)}</pre>` : `<p>${esc(p).replace(/\n/g, ' ')}</p>`).join('');
  cellPanel();
}

function cellPanel() {
  if (selected < 0) {
    $('cell').innerHTML = '<p class="muted">Click a cell for its channels, spools and links.</p>';
    return;
  }
  const c = JSON.parse(api.cell(w, selected));
  const [sc] = stateOf(selected);
  let h = `<h3>Cell (${c.x},${c.y})</h3><div style="color:${css(sc)}">${esc(c.state)}</div>`;
  if (c.fault) h += `<div style="color:${css(pal.theme.fault)}">${esc(c.fault)}</div>`;
  h += `<div class="muted">pc 0x${c.pc.toString(16)}${c.file ? `  ${esc(c.file)}:${c.line}` : ''}</div>`;
  h += '<table><tr class="muted"><th></th><th>ch</th><th>state</th><th>route</th><th>from</th><th>n</th><th>cr</th>' +
    '<th>wait</th></tr>';
  for (const r of c.channels) {
    const col = css(lcColour(selected, r.lc));
    h += `<tr><td><span class="chip" style="background:${col}"></span></td><td>${r.lc}</td><td>${r.state}</td>` +
      `<td>${esc(r.route)}</td><td>${esc(r.source)}</td><td>${r.count}</td><td>${r.credits}</td><td>${r.wait}</td></tr>`;
  }
  if (c.channels.length === 0) h += '<tr><td></td><td colspan="7" class="muted">(every channel free)</td></tr>';
  h += '</table>';
  for (const s of c.spools)
    h += `<div>spool ${s.spool} ${s.mode} ${s.lc < 0 ? 'next' : 'ch' + s.lc}: ${s.left} left, ${s.moved} moved</div>`;
  ['+X', '-X', '+Y', '-Y'].forEach((d, i) => {
    if (c.links[i] > 0)
      h += `<div>link ${d} ${c.links[i]} words, ${Math.round(util[selected * 4 + i] * 100)}% now</div>`;
  });
  $('cell').innerHTML = h;
}

function legend() {
  const t = pal.theme, sw = (c, s) => `<span class="sw" style="background:${css(c)}"></span>${s}`;
  $('legend').innerHTML = '<h3>Legend</h3>' +
    [sw(t.run, 'running'), sw(t.wait_in, 'waits: input'), sw(t.wait_out, 'waits: output'), sw(t.halted, 'halted'),
      sw(t.fault, 'fault'), sw(t.idle, 'no program')].join(' ') +
    '<p class="muted">A bar per logical channel: words queued (0-8); a dark cap: a header setting up, grey: ' +
    'draining. Colour = one pathway, the same on every cell and link it crosses; grey: a route nothing feeds. ' +
    'With 20 channels the bars come in three groups: local (0-7), pool 0 (8-15), pool 1 (16-19). Links darken ' +
    'and widen with their use over the last 32 clocks; a dot is a word on the wire; the dashed red frame is the ' +
    'dateline, where the wrap-around links cross.</p>';
}

// --- loading, playing ---

function showError(msg) {
  $('error').hidden = !msg;
  $('error').textContent = msg || '';
}

function loaded(rc) {
  if (rc !== 0) {
    showError(api.error(w) || 'the demo did not load');
    return false;
  }
  showError('');
  L = JSON.parse(api.layout(w));
  E = L.enum;
  selected = L.select;
  $('title').textContent = L.title;
  setSpeed(L.speed > 0 ? L.speed : 20);
  draw();
  return true;
}

function loadDemo(name) {
  playing = false;
  $('play').textContent = 'Play';
  return loaded(api.load(w, name));
}

function setSpeed(v) {
  const sel = $('speed');
  if (![...sel.options].some((o) => +o.value === v)) sel.add(new Option(String(v)));
  sel.value = String(v);
}

function tick(now) {
  if (playing) {
    const speed = +$('speed').value;
    owed += Math.min((now - lastTick) / 1000, 0.25) * speed;
    const n = Math.floor(owed);
    if (n > 0) {
      owed -= n;
      api.step(w, n);
      if (api.status(w) !== 'running') {
        playing = false;
        $('play').textContent = 'Play';
      }
      draw();
    }
  }
  lastTick = now;
  requestAnimationFrame(tick);
}

function togglePlay() {
  if (api.status(w) !== 'running') loadDemo($('demo').value);
  playing = !playing;
  owed = 0;
  $('play').textContent = playing ? 'Pause' : 'Play';
  panel(api.clock(w));
}

function stepOnce() {
  playing = false;
  $('play').textContent = 'Play';
  api.step(w, 1);
  draw();
}

function cellAt(ev) {
  const r = canvas.getBoundingClientRect(), x = ev.clientX - r.left, y = ev.clientY - r.top;
  const fx = (x - G.ox) / G.pitchX, fy = (y - G.oy) / G.pitchY;
  if (fx < 0 || fy < 0 || fx >= L.width || fy >= L.height) return -1;
  if ((fx - Math.floor(fx)) * G.pitchX > G.bw || (fy - Math.floor(fy)) * G.pitchY > G.bh) return -1;
  return Math.floor(fy) * L.width + Math.floor(fx);
}

async function main() {
  M = await IwarpModule();
  api = wrapApi(M);
  w = api.create();
  const p = JSON.parse(api.palette(w));
  pal = { theme: {}, paths: p.paths.map(rgb) };
  for (const k in p.theme) pal.theme[k] = rgb(p.theme[k]);
  const demos = JSON.parse(api.demos(w));
  for (const d of demos) $('demo').add(new Option(d.title, d.name));
  const first = params.get('demo') || (demos.length ? demos[0].name : '');
  $('demo').value = first;
  legend();
  if (!loadDemo(first)) return;
  // How long the page took to show its first frame (docs/web.md measures it so).
  document.body.dataset.readyMs = Math.round(performance.now());
  // ?run=N: runs to clock N at once (what tests/web asks for), and says the clock and the state hash.
  if (params.has('run')) {
    api.step(w, +params.get('run'));
    draw();
    $('result').textContent = `clock ${api.clock(w)} hash ${api.hash(w)} status ${api.status(w)}`;
  }
  $('demo').onchange = () => loadDemo($('demo').value);
  $('play').onclick = togglePlay;
  $('step').onclick = stepOnce;
  $('reset').onclick = () => loadDemo($('demo').value);
  canvas.onclick = (ev) => {
    const c = cellAt(ev);
    selected = c === selected ? -1 : c;
    draw();
  };
  document.onkeydown = (ev) => {
    if (ev.target.tagName === 'TEXTAREA' || ev.target.tagName === 'INPUT') return;
    if (ev.key === ' ') togglePlay();
    else if (ev.key === 'ArrowRight' || ev.key === '.') stepOnce();
    else if (ev.key === 'Home') loadDemo($('demo').value);
    else if (ev.key === 'Escape') { selected = -1; draw(); }
    else return;
    ev.preventDefault();
  };
  $('own-load').onclick = () => {
    playing = false;
    loaded(api.loadText(w, $('own-name').value, $('own-txt').value, $('own-run').value, $('own-s').value));
  };
  window.onresize = draw;
  requestAnimationFrame(tick);
}

main().catch((e) => showError(String(e)));
