/*
 * options — Tien Gow's rule options (rules/tiengow.md §7) in the lobby: the controls of the
 * create form with their defaults and a short explanation each, reading them back into the
 * options of create_table, and the short summary of what differs from the standard rules that
 * the table list shows.
 */
import { checkbox, field, h } from '../../dom.js';
import { t } from '../../i18n.js';

/* The rule options with their defaults; the form's controls are built from this list. */
const RULE_OPTIONS = [
  { key: 'wen_zun', kind: 'bool', def: false },
  { key: 'rotation', kind: 'choice', def: 'fly', choices: ['fly', 'turn'] },
  { key: 'qin_multiplier', kind: 'choice', def: 4, choices: [4, 2] },
  { key: 'qin_pays_all', kind: 'bool', def: true },
  { key: 'quartet_bonus', kind: 'choice', def: 'winner', choices: ['winner', 'appearance'] },
];
const NATURAL_OPTIONS = ['seven_civil', 'seven_military', 'eight_civil', 'eight_military', 'four_pairs'];

/* A short list of what differs from the standard rules, for the table list. */
export function optionsSummary(options) {
  const o = options || {};
  const parts = [];
  if (o.wen_zun) parts.push(t('tg.options.summary.wen_zun'));
  if (o.rotation === 'turn') parts.push(t('tg.options.summary.turn'));
  if (o.qin_multiplier === 2) parts.push(t('tg.options.summary.qin2'));
  if (o.qin_pays_all === false) parts.push(t('tg.options.summary.qin_each'));
  if (o.quartet_bonus === 'appearance') parts.push(t('tg.options.summary.appearance'));
  const naturals = NATURAL_OPTIONS.filter((k) => o[k]).length;
  if (naturals) parts.push(t('tg.options.summary.naturals', { n: naturals }));
  if (o.stake && o.stake !== 1) parts.push(t('tg.options.summary.stake', { n: o.stake }));
  return parts.length ? parts.join(' · ') : t('tg.options.standard');
}

function ruleControl(opt) {
  const id = `opt-${opt.key}`;
  const help = t(`tg.opt.${opt.key}.help`);
  if (opt.kind === 'bool') return checkbox(id, t(`tg.opt.${opt.key}`), opt.def, help);
  const select = h('select', { id, 'aria-describedby': `${id}-help` }, opt.choices.map((c) => h('option', {
    value: String(c), selected: c === opt.def ? true : null,
  }, opt.key === 'qin_multiplier' ? `×${c}` : t(`tg.opt.${opt.key}.${c}`))));
  return field(id, t(`tg.opt.${opt.key}`), select, help);
}

/* The controls of the rule options, each at its default, for the create form. */
export function optionEditor() {
  return [
    ...RULE_OPTIONS.map(ruleControl),
    h('fieldset', {},
      h('legend', {}, t('tg.opt.naturals')),
      h('p', { class: 'help' }, t('tg.opt.naturals.help')),
      NATURAL_OPTIONS.map((key) => checkbox(`opt-${key}`, t(`tg.opt.${key}`), false, null))),
    field('opt-stake', t('tg.opt.stake'), h('input', { id: 'opt-stake', type: 'number', min: 1, step: 1, value: '1',
      'aria-describedby': 'opt-stake-help' }), t('tg.opt.stake.help')),
  ];
}

/* The options the form's controls say, as create_table sends them. */
export function readOptions(form) {
  const options = {};
  for (const opt of RULE_OPTIONS) {
    const el = form.querySelector(`#opt-${opt.key}`);
    if (opt.kind === 'bool') options[opt.key] = el.checked;
    else options[opt.key] = typeof opt.def === 'number' ? Number(el.value) : el.value;
  }
  for (const key of NATURAL_OPTIONS) options[key] = form.querySelector(`#opt-${key}`).checked;
  options.stake = Math.max(1, Math.floor(Number(form.querySelector('#opt-stake').value) || 1));
  return options;
}
