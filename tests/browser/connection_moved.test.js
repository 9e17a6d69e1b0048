/*
 * connection_moved — the web client's connection under Node with a scripted WebSocket, no
 * browser or server: a join_table answered `moved` (PROTOCOL.md) takes the connection to that
 * node's path on the same host, says hello there with the same token and joins again, its caller
 * getting the node's snapshot; a node gone before its welcome sends the connection back to /ws;
 * a `moved` naming anything but a path on this host, or coming once the connection stopped, is
 * not followed.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';

import { Connection } from '../../web-client/js/connection.js';

/* A WebSocket whose server is a function: answer(socket, message) replies or closes. */
function fakeSockets(answer) {
  const opened = [];
  class FakeSocket {
    static OPEN = 1;
    constructor(url) {
      this.url = url;
      this.readyState = 0;
      this.sent = [];
      opened.push(this);
      setTimeout(() => {
        if (this.readyState === 3) return;
        this.readyState = 1;
        this.onopen && this.onopen();
      }, 0);
    }
    send(text) {
      const msg = JSON.parse(text);
      this.sent.push(msg);
      setTimeout(() => answer(this, msg), 0);
    }
    reply(msg) {
      this.onmessage && this.onmessage({ data: JSON.stringify(msg) });
    }
    close() {
      if (this.readyState === 3) return;
      this.readyState = 3;
      setTimeout(() => this.onclose && this.onclose(), 0);
    }
  }
  globalThis.WebSocket = FakeSocket;
  return opened;
}

function memoryStorage() {
  const m = new Map([['teahouse.token', 'tok-1']]);
  return { getItem: (k) => m.get(k) ?? null, setItem: (k, v) => m.set(k, v), removeItem: (k) => m.delete(k) };
}

function connect(answer) {
  const opened = fakeSockets(answer);
  const c = new Connection('ws://house.example/ws', memoryStorage(),
    { onMessage() {}, onStatus() {}, onWelcome() {}, onHelloRefused() {} });
  const online = new Promise((resolve) => { c.handlers.onWelcome = () => resolve(); });
  c.start('Ah Ma');
  return { c, opened, online };
}

const welcome = (ws, msg) => ws.reply({ type: 'welcome', id: msg.id, player: { id: 'p1' }, token: 'tok-1' });

describe('a moved answer is followed to the table\'s node', () => {
  it('reconnects to the node\'s path with the same token and joins there', async () => {
    const { c, opened, online } = connect((ws, msg) => {
      if (msg.type === 'hello') return welcome(ws, msg);
      if (ws.url.endsWith('/n/n2/ws')) return ws.reply({ type: 'snapshot', id: msg.id, table: 'ABCDEF' });
      return ws.reply({ type: 'moved', id: msg.id, table: 'ABCDEF', node: 'n2', ws: '/n/n2/ws' });
    });
    await online;
    const reply = await c.request({ type: 'join_table', code: 'ABCDEF' });
    assert.equal(reply.type, 'snapshot');
    assert.equal(opened.length, 2);
    assert.equal(opened[1].url, 'ws://house.example/n/n2/ws');
    assert.deepEqual(opened[1].sent.map((m) => m.type), ['hello', 'join_table']);
    assert.equal(opened[1].sent[0].token, 'tok-1');
    assert.equal(opened[1].sent[1].code, 'ABCDEF');
    c.stopped = true;
    opened[1].close();
  });

  it('goes back to /ws when the node is gone before its welcome', async () => {
    const { c, opened, online } = connect((ws, msg) => {
      if (ws.url.endsWith('/n/n2/ws')) return ws.close(); /* the node died */
      if (msg.type === 'hello') return welcome(ws, msg);
      return ws.reply({ type: 'moved', id: msg.id, table: 'ABCDEF', node: 'n2', ws: '/n/n2/ws' });
    });
    await online;
    const join = c.request({ type: 'join_table', code: 'ABCDEF' }).catch((e) => e);
    for (let i = 0; i < 100 && opened.length < 3; i++) await new Promise((r) => setTimeout(r, 20));
    assert.equal(opened[1].url, 'ws://house.example/n/n2/ws');
    assert.equal(opened[2].url, 'ws://house.example/ws');
    assert.equal((await join).code, 'no_such_table'); /* given up after MOVED_HOPS hops */
    c.stopped = true;
    c.ws.close();
  });

  it('does not follow a moved to another host', async () => {
    const { c, opened, online } = connect((ws, msg) => {
      if (msg.type === 'hello') return welcome(ws, msg);
      return ws.reply({ type: 'moved', id: msg.id, table: 'ABCDEF', node: 'x', ws: '//evil.example/ws' });
    });
    await online;
    await assert.rejects(c.request({ type: 'join_table', code: 'ABCDEF' }), (e) => e.code === 'no_such_table');
    assert.equal(opened.length, 1);
    c.stopped = true;
    opened[0].close();
  });

  it('does not follow a moved once stopped (another tab has the seat)', async () => {
    const { c, opened, online } = connect((ws, msg) => {
      if (msg.type === 'hello') return welcome(ws, msg);
      c.stopped = true; /* replaced meanwhile */
      return ws.reply({ type: 'moved', id: msg.id, table: 'ABCDEF', node: 'n2', ws: '/n/n2/ws' });
    });
    await online;
    await assert.rejects(c.request({ type: 'join_table', code: 'ABCDEF' }), (e) => e.code === 'no_such_table');
    await new Promise((r) => setTimeout(r, 50));
    assert.equal(opened.length, 1); /* no connection to n2 */
    opened[0].close();
  });
});
