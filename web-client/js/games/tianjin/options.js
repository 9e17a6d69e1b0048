/*
 * options — Tianjin Mahjong's rule options (rules/tianjin-mahjong.md §7's table) in the lobby:
 * the create form's controls with their defaults and a line of help each (the 刮大风 preset of §6
 * first, as a choice between two presets), reading them back into create_table's `options`, and
 * the short summary of what differs from the standard rules that the table list shows.
 *
 * The options are data (RULE_OPTIONS); controlValues() and optionsFromControls() turn options
 * into what the controls show and back, without a DOM, so the round trip is tested under Node.
 */
import { checkbox, field, h } from '../../dom.js';
import { t } from '../../i18n.js';

/* §7's table, in its order: key, control, default, the values a choice offers. */
export const RULE_OPTIONS = [
  { key: 'gua_da_feng', kind: 'preset', def: false, choices: [false, true] },
  { key: 'wild_discard_penalty', kind: 'bool', def: false },
  { key: 'gold_kong_fan', kind: 'choice', def: 8, choices: [8, 4, 0] },
  { key: 'chan', kind: 'bool', def: false },
  { key: 'must_sit', kind: 'bool', def: false },
  { key: 'max_pulls', kind: 'choice', def: 1, choices: [1, 2] },
  { key: 'no_replacement', kind: 'choice', def: 'draw', choices: ['draw', 'skip_indicator'] },
  { key: 'base', kind: 'int', def: 1, min: 1, max: 1000000 },
  /* not a rule of §7 but the table's: how long every seat is asked after each discard */
  { key: 'claim_seconds', kind: 'int', def: 5, min: 2, max: 30 },
];

export function defaultOptions() {
  return Object.fromEntries(RULE_OPTIONS.map((o) => [o.key, o.def]));
}

/* What each control shows for these options (missing ones at their default): a boolean for a
 * checkbox, the value's text for a choice, a preset or a number field. */
export function controlValues(options) {
  const o = { ...defaultOptions(), ...(options || {}) };
  return Object.fromEntries(RULE_OPTIONS.map((opt) => [opt.key, opt.kind === 'bool' ? Boolean(o[opt.key]) : String(o[opt.key])]));
}

/* The options the controls say, typed as create_table sends them; a value no control offers
 * falls back to the default, a base is held to 1..1,000,000. */
export function optionsFromControls(values) {
  const options = {};
  for (const opt of RULE_OPTIONS) {
    const value = values[opt.key];
    if (opt.kind === 'bool') {
      options[opt.key] = Boolean(value);
    } else if (opt.kind === 'int') {
      const n = Math.floor(Number(value));
      options[opt.key] = Number.isFinite(n) ? Math.min(opt.max, Math.max(opt.min, n)) : opt.def;
    } else {
      const found = opt.choices.find((c) => String(c) === String(value));
      options[opt.key] = found === undefined ? opt.def : found;
    }
  }
  return options;
}

/* A short list of what differs from the standard rules, for the table list. */
export function optionsSummary(options) {
  const o = { ...defaultOptions(), ...(options || {}) };
  const parts = [];
  if (o.gua_da_feng) parts.push(t('tj.options.summary.gua_da_feng'));
  if (o.wild_discard_penalty) parts.push(t('tj.options.summary.wild_discard_penalty'));
  if (o.gold_kong_fan === 0) parts.push(t('tj.options.summary.no_gold_kong'));
  else if (o.gold_kong_fan !== 8) parts.push(t('tj.options.summary.gold_kong_fan', { n: o.gold_kong_fan }));
  if (o.chan) parts.push(t('tj.options.summary.chan'));
  if (o.must_sit) parts.push(t('tj.options.summary.must_sit'));
  if (o.max_pulls === 2) parts.push(t('tj.options.summary.max_pulls'));
  if (o.no_replacement === 'skip_indicator') parts.push(t('tj.options.summary.skip_indicator'));
  if (o.base !== 1) parts.push(t('tj.options.summary.base', { n: o.base }));
  if (o.claim_seconds !== 5) parts.push(t('tj.options.summary.claim_seconds', { n: o.claim_seconds }));
  return parts.length ? parts.join(' · ') : t('tj.options.standard');
}

function presetControl(opt, value) {
  const id = `opt-${opt.key}`;
  return h('fieldset', { id, class: 'mj-preset', 'aria-describedby': `${id}-help` },
    h('legend', {}, t(`tj.opt.${opt.key}`)),
    opt.choices.map((c) => h('div', { class: 'field-check' },
      h('input', { type: 'radio', id: `${id}-${c}`, name: id, value: String(c), checked: String(c) === value }),
      h('label', { for: `${id}-${c}` }, t(`tj.opt.${opt.key}.${c}`)))),
    h('p', { class: 'help', id: `${id}-help` }, t(`tj.opt.${opt.key}.help`)));
}

function ruleControl(opt, value) {
  const id = `opt-${opt.key}`;
  const help = t(`tj.opt.${opt.key}.help`);
  if (opt.kind === 'preset') return presetControl(opt, value);
  if (opt.kind === 'bool') return checkbox(id, t(`tj.opt.${opt.key}`), value, help);
  if (opt.kind === 'int') {
    return field(id, t(`tj.opt.${opt.key}`), h('input', { id, type: 'number', min: opt.min, max: opt.max, step: 1, value,
      'aria-describedby': `${id}-help` }), help);
  }
  const select = h('select', { id, 'aria-describedby': `${id}-help` }, opt.choices.map((c) => h('option', {
    value: String(c), selected: String(c) === value ? true : null,
  }, t(`tj.opt.${opt.key}.${c}`))));
  return field(id, t(`tj.opt.${opt.key}`), select, help);
}

/* The controls of the rule options for the create form, at these options (default: the standard rules). */
export function optionEditor(options) {
  const values = controlValues(options);
  return RULE_OPTIONS.map((opt) => ruleControl(opt, values[opt.key]));
}

/* The options the form's controls say, as create_table sends them. */
export function readOptions(form) {
  const values = {};
  for (const opt of RULE_OPTIONS) {
    if (opt.kind === 'preset') {
      const checked = form.querySelector(`input[name="opt-${opt.key}"]:checked`);
      values[opt.key] = checked ? checked.value : String(opt.def);
    } else {
      const el = form.querySelector(`#opt-${opt.key}`);
      values[opt.key] = opt.kind === 'bool' ? el.checked : el.value;
    }
  }
  return optionsFromControls(values);
}
