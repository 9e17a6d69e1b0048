/*
 * chat — two people at a table talk through the chat panel: a typed line and a quick reaction
 * reach the other page as text (markup stays text), who joins and leaves is told in the chat,
 * a line is cut to the welcome's chat_chars, going faster than the chat limit says so politely
 * and keeps the line, and on a phone the panel starts folded with an unread count.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';

import { createTable, enterName, launchBrowser, openPage, recordFrames, screenshot, startServer } from './harness.js';

describe('the chat at a table', () => {
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

  it('carries lines and reactions between the pages, tells who comes and goes, and asks to slow down', async () => {
    const host = await openPage(browser, server.url, { viewport: { width: 1280, height: 900 } });
    await enterName(host, 'Ah Ma');
    const code = await createTable(host);
    await host.waitForSelector('#chat-log');

    const guest = await openPage(browser, server.url, { hash: `#/t/${code}`, viewport: { width: 1280, height: 900 } });
    const sent = recordFrames(guest);
    await enterName(guest, 'Bo Bo');
    await guest.waitForSelector(`#table-page[data-code="${code}"] #chat-log`);
    await host.waitForSelector('#chat-log .chat-joined:has-text("Bo Bo joined the table.")');

    await guest.fill('#chat-input', '<b>hello</b> 好牌');
    await guest.click('#chat-send');
    const line = host.locator('#chat-log .chat-line:has(.chat-text)').last();
    await line.waitFor();
    assert.equal(await line.locator('.chat-text').innerText(), '<b>hello</b> 好牌', 'markup is shown as text');
    assert.equal(await host.locator('#chat-log b').count(), 0, 'no element is made from a chat line');
    assert.match(await line.locator('.chat-from').innerText(), /Bo Bo/);
    assert.equal(await guest.inputValue('#chat-input'), '', 'a sent line leaves the box');

    await host.click('.chat-reaction:has-text("👍")');
    /* the reaction arrives as its emoji, drawn (no emoji font is needed) */
    await guest.waitForFunction(() => [...document.querySelectorAll('#chat-log .chat-text')]
      .some((el) => el.textContent === '👍' && el.querySelector('.emoji[role="img"] svg')));

    /* a line over the limit is cut to it, in characters (an emoji is one) */
    const limit = await guest.evaluate(async () => (await import('/js/limits.js')).limit('chat_chars'));
    await guest.fill('#chat-input', '😂'.repeat(limit + 5));
    assert.match(await guest.innerText('#chat-count'), new RegExp(`${limit + 5}/${limit}`));
    await guest.click('#chat-send');
    await guest.waitForSelector('#chat-status.warn');
    assert.match(await guest.innerText('#chat-status'), new RegExp(`at most ${limit} characters`));

    /* past the burst: a polite note, and the line stays to send again */
    await guest.fill('#chat-input', 'again');
    for (let i = 0; i < 8 && !(await guest.$('#chat-status.warn:has-text("chatting quickly")')); i++) {
      await guest.fill('#chat-input', 'again');
      await guest.click('#chat-send');
      await guest.waitForFunction(() => document.querySelector('#chat-input').value === ''
        || document.querySelector('#chat-status.warn'));
    }
    await guest.waitForSelector('#chat-status.warn:has-text("chatting quickly")');
    assert.equal(await guest.inputValue('#chat-input'), 'again', 'the refused line stays in the box');
    assert.ok(sent.received.some((m) => m.type === 'error' && m.code === 'rate_limited'));
    await screenshot(host, 'table-chat');

    await guest.click('#leave-table');
    await host.waitForSelector('#chat-log .chat-left:has-text("Bo Bo left the table.")');
    assert.deepEqual(host.errors, []);
    assert.deepEqual(guest.errors, []);
    await host.context().close();
    await guest.context().close();
  });

  it('starts folded on a phone and counts the lines said meanwhile', async () => {
    const host = await openPage(browser, server.url, { viewport: { width: 375, height: 812 } });
    await enterName(host, 'Ka Yan');
    const code = await createTable(host);
    await host.waitForSelector('#chat:not([open])');
    const guest = await openPage(browser, server.url, { hash: `#/t/${code}` });
    await enterName(guest, 'Siu Ming');
    await guest.waitForSelector('#chat-input');
    await guest.fill('#chat-input', 'hi');
    await guest.click('#chat-send');
    await host.waitForFunction(() => Number(document.querySelector('#chat-unread').textContent) >= 2);
    await host.click('#chat-summary');
    await host.waitForSelector('#chat[open] #chat-log .chat-text:text-is("hi")');
    assert.equal(await host.innerText('#chat-unread'), '', 'opening the chat reads it');
    await host.context().close();
    await guest.context().close();
  });
});
