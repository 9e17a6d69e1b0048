/*
 * links — the way from the client to the rules pages (rules.html): the address of a game's rules
 * or of one of their sections, a "Rules" link for a game, and linkRules(), which turns every
 * "rules §N" in a label (規則 §N, 规则 §N) into a link to that section of the game's page.
 *
 * The section numbers are those of docs/rules/*.md, and the page gives every section the anchor
 * #sN, so a label written from the rules of record lands on the same section in any language.
 * Links open in a new tab: a player reading the rules keeps their seat and their place.
 */
import { addStrings, t } from '../i18n.js';

addStrings({
  en: { 'rules.link': 'Rules', 'rules.linkOf': 'Rules of {game}' },
  'zh-Hant': { 'rules.link': '規則', 'rules.linkOf': '{game}規則' },
  'zh-Hans': { 'rules.link': '规则', 'rules.linkOf': '{game}规则' },
});

/* "rules §4", "規則 §4", "规则 §4" (a space or none before §). */
const MENTION = /(rules|規則|规则)\s?§(\d+)/g;

/* The address of a game's rules page, or of its section n. */
export function rulesHref(game, n) {
  const page = `rules.html?game=${encodeURIComponent(game)}`;
  return Number.isInteger(n) ? `${page}#s${n}` : page;
}

function anchor(href, text) {
  const a = document.createElement('a');
  a.href = href;
  a.target = '_blank';
  a.rel = 'noopener';
  a.className = 'rules-link';
  a.textContent = text;
  return a;
}

/* A link to the rules page of a game module (null for a game without one): "Rules", or with
 * `named` "Rules of <the game's name>". */
export function rulesLink(game, named) {
  if (!game || !game.rules) return null;
  const link = anchor(rulesHref(game.name), named ? t('rules.linkOf', { game: t(game.titleKey) }) : t('rules.link'));
  link.dataset.rulesGame = game.name;
  return link;
}

/*
 * A label of a game (its name, as the server names it) with its "rules §N" mentions as links to
 * that game's sections: a list of strings and links, ready to be the children of an element
 * (dom.js h() takes it as is). A label without a mention comes back as it is.
 */
export function linkRules(text, game) {
  const label = String(text);
  const parts = [];
  let at = 0;
  for (const m of label.matchAll(MENTION)) {
    if (m.index > at) parts.push(label.slice(at, m.index));
    const link = anchor(rulesHref(game, Number(m[2])), m[0]);
    link.dataset.rulesSection = m[2];
    parts.push(link);
    at = m.index + m[0].length;
  }
  if (at < label.length) parts.push(label.slice(at));
  return parts;
}
