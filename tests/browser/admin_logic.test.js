/*
 * admin_logic — the admin pages' logic that needs no browser, run in node: every label the pages
 * ask for exists in all three languages (and every ledger reason, audit action and check has
 * one), who sat when is read from a table's hands as runs of hands, a hand's deal is found in
 * either game's first view, and numbers and times are written as the pages show them.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';

import { ROOT } from './harness.js';
import { WORDS } from '../../web-client/js/admin/strings.js';
import { setLang, t } from '../../web-client/js/i18n.js';
import { REASONS } from '../../web-client/js/admin/pages/ledger.js';
import { gameAdmin, gameNames, gameReasons, loadGames } from '../../web-client/js/admin/games.js';
import { ACTIONS } from '../../web-client/js/admin/pages/audit.js';
import { sittings } from '../../web-client/js/admin/pages/tables.js';
import { dealOf } from '../../web-client/js/admin/pages/hand.js';
import { inputToMs, msToInput, plain, signed } from '../../web-client/js/admin/format.js';

const ADMIN = path.join(ROOT, 'web-client', 'js', 'admin');

function sources(dir) {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory()
    ? sources(path.join(dir, e.name)) : e.name.endsWith('.js') ? [fs.readFileSync(path.join(dir, e.name), 'utf8')] : []));
}

describe('admin logic', () => {
  it('has every label the pages use in English, 繁體 and 简体', async () => {
    await loadGames();
    assert.ok(gameNames().length >= 2 && gameNames().every((g) => gameAdmin(g)), 'every known game has an admin part');
    const marks = (x) => [...x.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort().join();
    for (const name of gameNames()) {
      const { strings } = gameAdmin(name);
      const keys = Object.keys(strings.en);
      assert.ok(keys.length > 5, name);
      for (const code of ['zh-Hant', 'zh-Hans']) {
        assert.deepEqual(Object.keys(strings[code]), keys, `${name} ${code} has the same labels`);
        for (const k of keys) assert.equal(marks(strings[code][k]), marks(strings.en[k]), `${name} ${k} ${code} marks`);
      }
    }
    const used = new Set(sources(ADMIN).flatMap((text) => [...text.matchAll(/'(adm\.[A-Za-z0-9_.]+)'/g)].map((m) => m[1])));
    assert.ok(used.size > 150, `the pages use labels (${used.size})`);
    for (const key of used) assert.ok(WORDS[key], `${key} is defined`);
    for (const [key, texts] of Object.entries(WORDS)) {
      assert.equal(texts.length, 3, key);
      assert.ok(texts.every((x) => typeof x === 'string' && x.trim()), `${key} has three texts`);
      /* the same {marks} in every language, so no value is lost in translation */
      assert.equal(marks(texts[1]), marks(texts[0]), `${key} zh-Hant marks`);
      assert.equal(marks(texts[2]), marks(texts[0]), `${key} zh-Hans marks`);
    }
    for (const r of REASONS) assert.ok(WORDS[`adm.reason.${r}`], `reason ${r}`);
    assert.ok(gameReasons().length >= 5);
    for (const code of ['en', 'zh-Hant', 'zh-Hans']) {
      setLang(code);
      for (const r of gameReasons()) assert.notEqual(t(`adm.reason.${r}`), `adm.reason.${r}`, `reason ${r} in ${code}`);
    }
    setLang('en');
    for (const a of ACTIONS) assert.ok(WORDS[`adm.audit.action.${a}`], `action ${a}`);
    for (const c of ['zero_sum', 'replay', 'chain']) assert.ok(WORDS[`adm.int.check.${c}`], `check ${c}`);
    for (const s of ['idle', 'running', 'done']) assert.ok(WORDS[`adm.int.state.${s}`], `state ${s}`);
    setLang('zh-Hans');
    assert.equal(t('adm.nav.ledger'), '账目');
    setLang('zh-Hant');
    assert.equal(t('adm.nav.ledger'), '帳目');
    setLang('en');
  });

  it('reads who sat when as runs of consecutive hands per seat', () => {
    const seat = (player, nickname) => (player === 'bot' ? { player: null, nickname: null, bot: true, net: 0 } : { player, nickname, bot: false, net: 0 });
    const empty = { player: null, nickname: null, bot: false, net: null };
    const hands = [
      { number: 1, started_at: 10, seats: [seat(1, 'Mei'), seat('bot'), seat(2, 'Lan'), seat('bot')] },
      { number: 2, started_at: 20, seats: [seat(1, 'Mei'), seat('bot'), seat('bot'), seat('bot')] },
      { number: 3, started_at: 30, seats: [seat(1, 'Mei'), seat('bot'), seat(2, 'Lan'), seat('bot')] },
      { number: 4, started_at: 40, seats: [empty, empty, empty, empty] },
      { number: 5, started_at: 50, seats: [seat(1, 'Mei')] },
    ];
    const runs = sittings(hands).map((list) => list.map((r) => [r.who, r.from, r.to, r.at]));
    assert.deepEqual(runs[0], [['p1', 1, 3, 10], ['p1', 5, 5, 50]], 'an unfinished hand breaks the run');
    assert.deepEqual(runs[1], [['bot', 1, 3, 10]]);
    assert.deepEqual(runs[2], [['p2', 1, 1, 10], ['bot', 2, 2, 20], ['p2', 3, 3, 30]]);
    assert.deepEqual(sittings([{ number: 1, seats: 'x' }]), [[], [], [], []], 'hostile seats are no seats');
  });

  it('lists each hand\'s bank: Tien Gow\'s winner, Tianjin\'s sitting, pulls and winner, from the hand\'s summary', async () => {
    await loadGames();
    const kit = { seatName: (s) => (Number.isInteger(s) ? ['East', 'South', 'West', 'North'][s] : '—') };
    const tj = gameAdmin('tianjin');
    assert.equal(tj.stateColumns.length, 5);
    assert.deepEqual(tj.stateCells({ banker: 0, count: 2, must_sit: false }, kit, { sat: true, pulls: [0, 2, 0, 1], winner: 2 }),
      ['East', 'banked 2 in a row', 'sat ×2', 'South pulls 2, North pulls 1', 'West']);
    assert.deepEqual(tj.stateCells({ banker: 1, count: 0 }, kit, { sat: false, pulls: [0, 0, 0, 0], winner: null }),
      ['South', 'banked 0 in a row', 'no', '—', 'drawn hand']);
    assert.deepEqual(tj.stateCells({ banker: 1 }, kit, null).slice(2), ['—', '—', '—'], 'a hand being played has no summary');
    assert.equal(tj.stateCells({ banker: 1 }, kit).length, 2, 'the table as it is now: the state alone');
    assert.deepEqual(tj.stateCells({ banker: 3 }, kit, { sat: 'x', pulls: 'x', winner: 'x' }).slice(2), ['—', '—', 'drawn hand'],
      'a hostile summary shows nothing it does not understand');
    const tg = gameAdmin('tiengow');
    assert.equal(tg.stateColumns.length, 3);
    assert.deepEqual(tg.stateCells({ banker: 2, multiplier: 4 }, kit, { winner: 1 }), ['West', '×4', 'South']);
    assert.deepEqual(tg.stateCells({ banker: 2, multiplier: 2 }, kit, null), ['West', '×2', '—']);
  });

  it('finds the deal in either game\'s first view', () => {
    assert.deepEqual(dealOf('tiengow', { deal: [['6-6'], ['1-1'], [], []] })[1], ['1-1']);
    assert.deepEqual(dealOf('tianjin', { deal: { hands: [['1m'], [], [], []], wall: [] } })[0], ['1m']);
    assert.deepEqual(dealOf('tianjin', { hands: [['E']] })[0], ['E'], 'without a deal, the hands');
    assert.deepEqual(dealOf('tiengow', null), []);
  });

  it('writes units with a real minus sign and reads the time inputs back', () => {
    assert.equal(signed(1234), '+1,234');
    assert.equal(signed(-5), '−5');
    assert.equal(signed(0), '0');
    assert.equal(signed('5'), '—');
    assert.equal(plain(-1000000), '−1,000,000');
    assert.equal(inputToMs(''), '');
    assert.equal(inputToMs('not a time'), '');
    const ms = inputToMs('2026-11-24T17:05');
    assert.equal(msToInput(ms), '2026-11-24T17:05');
    assert.equal(msToInput('x'), '');
  });
});
