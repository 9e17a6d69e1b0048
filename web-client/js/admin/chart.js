/*
 * chart — a player's net by day as an SVG bar chart drawn here (no library): one bar a day with
 * rows, up for a day won and down for a day lost, from a zero line, with the first and last day
 * under it and the largest swing beside the axis. Each bar has a <title> with its day, net and
 * hands, so a pointer or a screen reader can read the exact figures.
 */
import { t } from '../i18n.js';
import { signed } from './format.js';

const NS = 'http://www.w3.org/2000/svg';

function el(tag, attrs, text) {
  const node = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, String(v));
  if (text !== undefined) node.textContent = text;
  return node;
}

/* days: [{day: 'YYYY-MM-DD', net, hands}] oldest first. */
export function netByDayChart(days) {
  const W = 640;
  const H = 220;
  const pad = { left: 72, right: 8, top: 14, bottom: 32 };
  const list = (Array.isArray(days) ? days : []).filter((d) => d && typeof d.net === 'number');
  const svg = el('svg', { viewBox: `0 0 ${W} ${H}`, class: 'adm-chart', role: 'img', id: 'net-chart',
    'aria-label': t('adm.chart.label', { n: list.length }) });
  if (!list.length) {
    svg.appendChild(el('text', { x: W / 2, y: H / 2, 'text-anchor': 'middle', class: 'adm-chart-empty' }, t('adm.chart.none')));
    return svg;
  }
  const max = Math.max(1, ...list.map((d) => Math.abs(d.net)));
  const hasNeg = list.some((d) => d.net < 0);
  const hasPos = list.some((d) => d.net > 0) || !hasNeg;
  const plotH = H - pad.top - pad.bottom;
  const zeroY = pad.top + (hasPos && hasNeg ? plotH / 2 : hasPos ? plotH : 0);
  const scale = (hasPos && hasNeg ? plotH / 2 : plotH) / max;
  const plotW = W - pad.left - pad.right;
  const step = plotW / list.length;
  const barW = Math.max(1, Math.min(40, step * 0.7));
  list.forEach((d, i) => {
    const x = pad.left + i * step + (step - barW) / 2;
    const hgt = Math.max(1, Math.abs(d.net) * scale);
    const y = d.net >= 0 ? zeroY - hgt : zeroY;
    const bar = el('rect', { x: x.toFixed(1), y: y.toFixed(1), width: barW.toFixed(1), height: hgt.toFixed(1),
      class: d.net > 0 ? 'bar pos' : d.net < 0 ? 'bar neg' : 'bar zero', 'data-day': d.day });
    bar.appendChild(el('title', {}, t('adm.chart.bar', { day: d.day, net: signed(d.net), n: d.hands ?? 0 })));
    svg.appendChild(bar);
  });
  svg.appendChild(el('line', { x1: pad.left, x2: W - pad.right, y1: zeroY, y2: zeroY, class: 'axis' }));
  svg.appendChild(el('line', { x1: pad.left, x2: pad.left, y1: pad.top, y2: H - pad.bottom, class: 'axis' }));
  svg.appendChild(el('text', { x: pad.left - 6, y: zeroY + 4, 'text-anchor': 'end', class: 'tick' }, '0'));
  if (hasPos) svg.appendChild(el('text', { x: pad.left - 6, y: zeroY - max * scale + 4, 'text-anchor': 'end', class: 'tick' }, signed(max)));
  if (hasNeg) svg.appendChild(el('text', { x: pad.left - 6, y: zeroY + max * scale + 4, 'text-anchor': 'end', class: 'tick' }, signed(-max)));
  svg.appendChild(el('text', { x: pad.left, y: H - 8, class: 'tick' }, list[0].day));
  if (list.length > 1) svg.appendChild(el('text', { x: W - pad.right, y: H - 8, 'text-anchor': 'end', class: 'tick' }, list[list.length - 1].day));
  return svg;
}
