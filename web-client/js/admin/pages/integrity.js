/*
 * integrity — start the server's integrity check (every hand's rows sum to zero, every hand
 * replays to its stored result, the ledger's hash chain holds), follow it with a progress bar
 * while it runs (polled every second), and show its result: all well, or the problems with the
 * first bad row or hand linked. Only one check runs at a time: a second start is answered 409.
 */
import { h, replace } from '../../dom.js';
import { t } from '../../i18n.js';
import { api } from '../api.js';
import { plain, time } from '../format.js';
import { dataTable, errorBox, facts, handLink, section } from '../ui.js';
import { ledgerHash } from './ledger.js';

const POLL_MS = 1000;

function percent(done, total) {
  if (!total) return 0;
  return Math.min(100, Math.round((100 * done) / total));
}

function draw(box, s) {
  const running = s.state === 'running';
  const hands = percent(s.hands_checked, s.hands_total);
  const rows = percent(s.rows_checked, s.rows_total);
  const problems = Array.isArray(s.problems) ? s.problems : [];
  const total = typeof s.problems_total === 'number' ? s.problems_total : problems.length;
  const first = problems.find((p) => p.row !== null && p.row !== undefined) || problems[0];
  replace(box,
    h('p', { id: 'integrity-state', dataset: { state: String(s.state), ok: String(s.ok) } }, t(`adm.int.state.${s.state}`) !== `adm.int.state.${s.state}` ? t(`adm.int.state.${s.state}`) : String(s.state)),
    s.state === 'idle' ? null : [
      h('div', { class: 'adm-progress' },
        h('label', { for: 'integrity-hands' }, t('adm.int.hands', { done: plain(s.hands_checked), total: plain(s.hands_total) })),
        h('progress', { id: 'integrity-hands', max: 100, value: hands }, `${hands}%`)),
      h('div', { class: 'adm-progress' },
        h('label', { for: 'integrity-rows' }, t('adm.int.rows', { done: plain(s.rows_checked), total: plain(s.rows_total) })),
        h('progress', { id: 'integrity-rows', max: 100, value: rows }, `${rows}%`)),
      facts('integrity-facts', [
        ['adm.int.started', time(s.started_at)],
        ['adm.int.finished', running ? '—' : time(s.finished_at)],
      ]),
    ],
    s.state === 'done' ? h('p', { id: 'integrity-result', class: s.ok ? 'adm-ok' : 'adm-error', role: 'status' },
      s.ok ? t('adm.int.ok') : t('adm.int.bad', { n: plain(total) }),
      !s.ok && total > problems.length ? ` ${t('adm.int.shown', { n: problems.length })}` : null) : null,
    typeof s.error === 'string' && s.error ? h('p', { class: 'adm-error', id: 'integrity-error' }, t('adm.int.error', { message: s.error })) : null,
    s.state === 'done' && first ? h('p', { id: 'integrity-first' }, t('adm.int.first'), ' ',
      first.row !== null && first.row !== undefined ? h('a', { href: ledgerHash({ before: String(first.row + 1) }) }, t('adm.int.row', { id: first.row })) : null, ' ',
      first.hand !== null && first.hand !== undefined ? handLink(first.hand) : null, ' ', h('span', {}, first.message ?? '')) : null,
    problems.length ? dataTable('integrity-problems', [
      { key: 'adm.col.check' }, { key: 'adm.col.hand' }, { key: 'adm.col.row' }, { key: 'adm.col.message' },
    ], problems.map((p) => ({ cells: [t(`adm.int.check.${p.check}`) !== `adm.int.check.${p.check}` ? t(`adm.int.check.${p.check}`) : String(p.check),
      handLink(p.hand), p.row === null || p.row === undefined ? '—' : String(p.row), p.message ?? ''] }))) : null);
}

export function render(ctx) {
  let timer = null;
  let stopped = false;
  const box = h('div', { id: 'integrity-body', 'aria-live': 'polite' });
  const note = h('div', { id: 'integrity-note' });
  const start = h('button', { type: 'button', id: 'integrity-start' }, t('adm.int.start'));
  const poll = async () => {
    timer = null;
    try {
      const s = await api('integrity');
      if (stopped) return;
      draw(box, s);
      start.disabled = s.state === 'running';
      if (s.state === 'running') timer = setTimeout(poll, POLL_MS);
    } catch (e) {
      if (!stopped && e.status !== 403) replace(note, errorBox(e));
    }
  };
  start.addEventListener('click', async () => {
    start.disabled = true;
    replace(note);
    try {
      await api('integrity', { method: 'POST' });
    } catch (e) {
      if (e.status === 403) return;
      if (e.status !== 409) replace(note, errorBox(e));
      else replace(note, h('p', { class: 'adm-note' }, t('adm.int.already')));
    }
    if (timer) clearTimeout(timer);
    poll();
  });
  ctx.main.append(h('h1', {}, t('adm.int.title')), section(null, h('p', { class: 'muted' }, t('adm.int.help')), start, note, box));
  poll();
  return () => {
    stopped = true;
    if (timer) clearTimeout(timer);
  };
}
