/*
 * sources — the web client's files as text, read in node: no merge marker left in any of them, and
 * every stylesheet's braces balanced, so no rule is silently dropped or swallowed into a media
 * query it does not belong to (a browser forgives both without a word).
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';

import { ROOT } from './harness.js';

function files(dir) {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory()
    ? files(path.join(dir, e.name)) : /\.(css|js|html)$/.test(e.name) ? [path.join(dir, e.name)] : []));
}

/* The depth of the first place the braces go below zero, or the depth at the end (0 when balanced). */
export function braceDepth(css) {
  const text = css.replace(/\/\*[\s\S]*?\*\//g, '').replace(/"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'/g, '""');
  let depth = 0;
  for (const ch of text) {
    if (ch === '{') depth += 1;
    else if (ch === '}') depth -= 1;
    if (depth < 0) return depth;
  }
  return depth;
}

describe('the web client\'s sources', () => {
  const all = files(path.join(ROOT, 'web-client'));

  it('have no merge marker left in them', () => {
    assert.ok(all.length > 20);
    for (const f of all) {
      const lines = fs.readFileSync(f, 'utf8').split('\n');
      const at = lines.findIndex((l) => /^(<{7}|={7}|>{7})( |$)/.test(l));
      assert.equal(at, -1, `${path.relative(ROOT, f)}:${at + 1} is a merge marker`);
    }
  });

  it('balance every stylesheet\'s braces', () => {
    assert.equal(braceDepth('a { b: c; } @media (x) { d { e: "}"; } }'), 0);
    assert.equal(braceDepth('@media (x) { d { e: f; }'), 1, 'an unclosed media query is found');
    assert.equal(braceDepth('a { b: c; } }'), -1);
    const sheets = all.filter((f) => f.endsWith('.css'));
    assert.ok(sheets.length >= 4);
    for (const f of sheets) assert.equal(braceDepth(fs.readFileSync(f, 'utf8')), 0, `${path.relative(ROOT, f)} balances its braces`);
  });
});
