/*
 * names_and_leaving — the small things a new player meets: a name of spaces is refused with a
 * reason, each bot has its own name, 简体 writes 庄 and 幺 (not the traditional 莊 and 么), and
 * leaving a hand being played asks first; once they leave, the others read it in the chat.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';

import { enterName, launchBrowser, openPage, soloTable, startServer } from './harness.js';

describe('names, words and leaving', () => {
  let server;
  let browser;
  before(async () => {
    server = await startServer(['--bot-delay-ms', '400']);
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('says why a name of spaces is refused', async () => {
    const page = await openPage(browser, server.url);
    await page.fill('#name-input', '   ');
    await page.click('#name-submit');
    await page.waitForSelector('#name-error:has-text("spaces alone")');
    assert.equal(await page.getAttribute('#name-input', 'aria-invalid'), 'true');
    await enterName(page, 'Ah Ma');
    await page.context().close();
  });

  it('names each bot after its seat and writes 庄 and 幺 in 简体', async () => {
    const { page } = await soloTable(browser, server.url, 'Bo Bo');
    const names = await page.locator('.seat .seat-name').allInnerTexts();
    assert.equal(new Set(names).size, 4, `four different names: ${names}`);
    assert.deepEqual(names.filter((n) => n.startsWith('Bot')).sort(), ['Bot North', 'Bot South', 'Bot West']);
    await page.click('button[data-lang="zh-Hans"]');
    const badge = await page.locator('.badge-banker').innerText();
    assert.match(badge, /^庄 ×\d+$/, `the banker's badge in 简体: ${badge}`);
    const seatNames = await page.locator('.seat .seat-name').allInnerTexts();
    assert.ok(seatNames.includes('电脑南'), `a bot is named by its seat in 简体: ${seatNames}`);
    const hans = await page.evaluate(async () => {
      const { t } = await import('/js/i18n.js');
      return [t('tg.opt.wen_zun.help'), t('tg.ending.yao'), t('tg.settle.qinEnding')].join(' ');
    });
    assert.ok(hans.includes('幺') && !hans.includes('么') && !hans.includes('莊'), hans);
    await page.click('button[data-lang="en"]');
    await page.context().close();
  });

  it('asks before leaving a hand being played, and the others read that they left', async () => {
    const { page, code } = await soloTable(browser, server.url, 'Ka Yan');
    const watcher = await openPage(browser, server.url, { hash: `#/t/${code}` });
    await enterName(watcher, 'Siu Ming');
    await watcher.waitForSelector('#chat-log');
    const asked = [];
    page.once('dialog', (d) => { asked.push(d.message()); d.dismiss(); });
    await page.click('#leave-table');
    await page.waitForFunction(() => true);
    assert.equal(asked.length, 1, 'leaving mid-hand asks');
    assert.match(asked[0], /bot plays your tiles/);
    assert.equal(await page.locator('#table-page[data-phase="playing"]').count(), 1, 'a player who says no stays');
    page.once('dialog', (d) => d.accept());
    await page.click('#leave-table');
    await page.waitForSelector('#name-form, #greeting');
    await watcher.waitForSelector('#chat-log .chat-left:has-text("Ka Yan left the table.")');
    await page.context().close();
    await watcher.context().close();
  });
});
