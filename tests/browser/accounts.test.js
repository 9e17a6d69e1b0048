/*
 * accounts — a guest registers from the lobby and is still that account after a reload (the
 * welcome names the account), logs out and is a new guest with a new token, and logs back in to
 * the same player, here and from another browser's first page; a wrong password, a taken name and a guest still at a table each show the
 * server's error in the form, in the page's language; obvious slips are caught before sending.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';

import { createTable, enterName, launchBrowser, openPage, recordFrames, screenshot, startServer, TOKEN, until,
  welcomesAfter } from './harness.js';

const token = (page) => page.evaluate(() => localStorage.getItem('teahouse.token'));

/* Fills and sends the login or register form of the lobby's account card. */
async function submitAccount(page, kind, name, password) {
  if (!(await page.isVisible(`#${kind}-form`))) await page.click(`#show-${kind}`);
  await page.fill(`#${kind}-name`, name);
  await page.fill(`#${kind}-password`, password);
  if (kind === 'register') await page.fill('#register-confirm', password);
  await page.click(`#${kind}-submit`);
}

/* The requests of a type this page has sent. */
const sent = (frames, type) => frames.sent.filter((m) => m.type === type);

describe('accounts', () => {
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

  it('registers, stays logged in after a reload, logs out to a guest and logs back in', async () => {
    const page = await openPage(browser, server.url);
    const frames = recordFrames(page);
    await enterName(page, 'Ah Ma');
    const guestToken = await token(page);
    const guestId = await page.evaluate(() => window.teahouse.app.me());
    assert.match(guestToken, TOKEN);
    assert.match(await page.innerText('#account-status'), /guest/);
    await screenshot(page, 'account-guest');

    let mark = frames.received.length;
    await submitAccount(page, 'register', 'ann', 'correct horse');
    await page.waitForSelector('#logout-button');
    const registered = welcomesAfter(frames, mark)[0];
    assert.equal(registered.player.account, 'ann');
    assert.equal(registered.player.id, guestId, 'the guest became the account');
    assert.equal(registered.resumed, false);
    assert.equal(registered.token, guestToken, 'register keeps the token');
    assert.equal(await token(page), guestToken);
    assert.equal(await page.innerText('#account-status'), 'Logged in as ann.');
    assert.equal(await page.innerText('#greeting-account'), 'account ann');
    await screenshot(page, 'account-registered');

    /* A reload says hello with the token: the same account, resumed. */
    mark = frames.received.length;
    await page.reload();
    await until(() => welcomesAfter(frames, mark).length > 0);
    const again = welcomesAfter(frames, mark)[0];
    assert.equal(again.resumed, true);
    assert.equal(again.player.account, 'ann');
    assert.equal(again.player.id, guestId);
    await page.waitForSelector('#greeting-account');
    assert.equal(await page.innerText('#greeting-account'), 'account ann');

    /* Log out: ok, the server closes, and the page is a new guest with a new token. */
    mark = frames.received.length;
    await page.click('#logout-button');
    await until(() => welcomesAfter(frames, mark).length > 0);
    const guest = welcomesAfter(frames, mark)[0];
    assert.ok(frames.received.slice(mark).some((m) => m.type === 'ok'), 'logout is answered ok');
    assert.equal(guest.player.account, null);
    assert.notEqual(guest.player.id, guestId, 'a new guest');
    const hello = frames.sent.filter((m) => m.type === 'hello').at(-1);
    assert.equal(hello.token, undefined, 'the new connection says hello without the old token');
    await page.waitForSelector('#show-login');
    assert.match(await page.innerText('#account-status'), /guest/);
    const newGuestToken = await token(page);
    assert.match(newGuestToken, TOKEN);
    assert.notEqual(newGuestToken, guestToken);
    assert.equal(await page.locator('#greeting-account').count(), 0);

    /* Log in again: a new token and the account's player. */
    mark = frames.received.length;
    await submitAccount(page, 'login', 'ann', 'correct horse');
    await page.waitForSelector('#logout-button');
    const loggedIn = welcomesAfter(frames, mark)[0];
    assert.equal(loggedIn.player.account, 'ann');
    assert.equal(loggedIn.player.id, guestId, 'the account\'s player');
    assert.match(loggedIn.token, TOKEN);
    assert.notEqual(loggedIn.token, newGuestToken);
    assert.notEqual(loggedIn.token, guestToken, 'a login opens a new session');
    assert.equal(await token(page), loggedIn.token, 'the stored token is replaced');

    /* Another device: log in straight from the first page, before choosing a name. */
    const other = await openPage(browser, server.url);
    const otherFrames = recordFrames(other);
    await other.waitForSelector('#name-form');
    await submitAccount(other, 'login', 'ann', 'correct horse');
    await other.waitForSelector('#logout-button');
    const there = otherFrames.received.filter((m) => m.type === 'welcome').at(-1);
    assert.equal(there.player.account, 'ann');
    assert.equal(there.player.id, guestId);
    assert.match(await other.innerText('#greeting'), /Welcome, Ah Ma/, 'the account\'s name, not the account name');
    assert.deepEqual(page.errors, []);
    assert.deepEqual(other.errors, []);
    await Promise.all([page.context().close(), other.context().close()]);
  });

  it('shows a wrong password, a taken name and obvious slips in the form, in the page\'s language', async () => {
    const owner = await openPage(browser, server.url);
    await enterName(owner, 'Ka Yan');
    await submitAccount(owner, 'register', 'kayan', 'tea and tiles');
    await owner.waitForSelector('#logout-button');

    const page = await openPage(browser, server.url);
    const frames = recordFrames(page);
    await enterName(page, 'Bo Bo');
    /* names differ only beyond ASCII case */
    await submitAccount(page, 'register', 'KaYan', 'another password');
    await page.waitForSelector('#register-error:text("That account name is taken.")');
    await page.click('#register-cancel');

    await submitAccount(page, 'login', 'kayan', 'wrong password');
    await page.waitForSelector('#login-error:text("Wrong account name or password.")');
    assert.match(await page.innerText('#account-status'), /guest/, 'still a guest');
    await screenshot(page, 'account-bad-login');

    /* caught before sending: a space in the name, a short password */
    const logins = sent(frames, 'login').length;
    await submitAccount(page, 'login', 'ka yan', 'tea and tiles');
    await page.waitForSelector('#login-error:text("no spaces")');
    await submitAccount(page, 'login', 'kayan', 'short');
    await page.waitForSelector('#login-error:text("at least 8 characters")');
    assert.equal(sent(frames, 'login').length, logins, 'no login was sent for them');

    /* the same in 繁體中文 */
    await page.click('[data-lang="zh-Hant"]');
    await page.waitForSelector('#show-login:text("登入")');
    await page.click('#show-login');
    assert.equal(await page.innerText('label[for="login-name"]'), '帳號名稱');
    assert.equal(await page.innerText('label[for="login-password"]'), '密碼');
    await submitAccount(page, 'login', 'kayan', 'still wrong');
    await page.waitForSelector('#login-error:text("帳號名稱或密碼錯誤。")');
    await page.click('[data-lang="zh-Hans"]');
    await page.click('#show-register');
    assert.equal(await page.innerText('label[for="register-password"]'), '密码');
    await page.click('[data-lang="en"]');
    assert.deepEqual(owner.errors, []);
    assert.deepEqual(page.errors, []);
    await Promise.all([owner.context().close(), page.context().close()]);
  });

  it('asks a guest at a table to leave it before logging in', async () => {
    const page = await openPage(browser, server.url);
    await enterName(page, 'Lo Fu');
    await createTable(page);
    await page.click('.brand'); /* back to the lobby without leaving the table */
    await page.waitForSelector('#account-card');
    await submitAccount(page, 'login', 'kayan', 'tea and tiles');
    await page.waitForSelector('#login-error:text("Leave your tables before logging in.")');
    assert.equal(await page.evaluate(() => window.teahouse.app.account()), null);
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });
});
