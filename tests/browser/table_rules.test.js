/*
 * table_rules — the table page says what is played there: the rule options that differ from the
 * standard ones, the stake and the turn timer, as the lobby's list does, in the player's language.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';

import { createTable, enterName, launchBrowser, openPage, startServer } from './harness.js';

describe('the rules on the table page', () => {
  let server;
  let browser;
  before(async () => {
    server = await startServer();
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('shows the options summary, the stake and the turn timer', async () => {
    const page = await openPage(browser, server.url);
    await enterName(page, 'Ah Ma');
    await page.$eval('details.rules', (d) => { d.open = true; });
    await page.fill('#opt-stake', '5');
    await page.fill('#opt-turn_seconds', '45');
    await createTable(page, { options: { rotation: 'turn' } });
    const text = await page.innerText('#table-rules');
    assert.match(text, /輪莊/, `the rules that differ: ${text}`);
    assert.match(text, /stake 5 a unit/);
    assert.match(text, /45 s a turn/);
    await page.click('button[data-lang="zh-Hans"]');
    assert.match(await page.innerText('#table-rules'), /每单位 5 · 每步 45 秒/);
    await page.click('button[data-lang="en"]');
    await page.context().close();
  });
});
