/*
 * connection — the one WebSocket to /ws (protocol/PROTOCOL.md): hello with the saved resume
 * token, requests matched to replies by id, reconnection after a drop, and the identity
 * changes of accounts (a login's new token, a logout's fresh start as a guest).
 *
 * The resume token lives in localStorage, so a refresh or a new connection after a network
 * drop says hello with it and the server puts the player back in their seats (it then sends
 * `events` and a fresh `snapshot` for each table on its own). The token is opaque: a guest's
 * and an account's alike survive a server restart. A connection replaced by another tab does
 * not reconnect by itself, or two tabs would take the seat from each other forever.
 *
 * Several nodes (PROTOCOL.md, "moved"): a request answered `moved` is followed transparently:
 * the connection moves to that node's path on the same host, says hello again with the token and
 * sends the request again, whose caller gets the node's answer. A node that cannot be reached
 * (gone before its welcome) sends the connection back to /ws, which finds the table's new owner.
 */

const TOKEN_KEY = 'teahouse.token';
const RETRY_MS = [300, 1000, 2000, 4000, 8000];
const PING_MS = 20000;
const MOVED_HOPS = 3; /* a request is followed to another node this many times at most */

export class Connection {
  /* handlers: onMessage(msg) for every server message, onStatus(status) with 'connecting',
   * 'online', 'reconnecting' or 'replaced', onWelcome(welcome), onHelloRefused(error). */
  constructor(url, storage, handlers) {
    this.url = url;
    this.homeUrl = url;      /* /ws: any node; this.url may be one node's path after a moved */
    this.welcomed = false;   /* the current socket's hello was answered */
    this.afterWelcome = null; /* a moved request to send again once the new node welcomes us */
    this.storage = storage;
    this.handlers = handlers;
    this.ws = null;
    this.name = null;
    this.player = null;
    this.nextId = 1;
    this.pending = new Map();
    this.retries = 0;
    this.status = 'idle';
    this.stopped = false;
    this.loggingOut = false;
    this.pingTimer = null;
  }

  token() {
    return this.storage.getItem(TOKEN_KEY);
  }

  /* Opens the connection (or reopens it under a new name: hello is once per connection). */
  start(name) {
    this.name = name;
    this.restart('new name');
  }

  /* Drops the current socket without reconnecting on its close, and says hello on a new one. */
  restart(why) {
    this.stopped = false;
    this.retries = 0;
    if (this.ws) {
      const old = this.ws;
      this.ws = null;
      old.onclose = null;
      old.close(1000, why);
      this.rejectPending();
    }
    this.open();
  }

  /* A welcome that answered register or login: this connection is now that player. A login's
   * token is new and replaces the stored one (a register's is the same). */
  adopt(welcome) {
    this.player = welcome.player;
    this.storage.setItem(TOKEN_KEY, welcome.token);
    this.handlers.onWelcome(welcome);
  }

  /*
   * Ends the session: the server answers ok and closes the socket. Whatever it answers, the
   * token is forgotten and a new connection says hello as a new guest. Resolves once that
   * hello is sent.
   */
  logout() {
    this.loggingOut = true;
    const done = () => {
      this.loggingOut = false;
      this.storage.removeItem(TOKEN_KEY);
      this.player = null;
      this.restart('logged out');
    };
    return this.request({ type: 'logout' }).then(done, done);
  }

  open() {
    this.setStatus(this.retries === 0 ? 'connecting' : 'reconnecting');
    const ws = new WebSocket(this.url);
    this.ws = ws;
    this.welcomed = false;
    ws.onopen = () => {
      const hello = { type: 'hello', v: 1, name: this.name };
      const token = this.token();
      if (token) hello.token = token;
      this.request(hello).then((welcome) => {
        this.retries = 0;
        this.player = welcome.player;
        this.storage.setItem(TOKEN_KEY, welcome.token);
        this.welcomed = true;
        this.setStatus('online');
        this.handlers.onWelcome(welcome);
        const again = this.afterWelcome;
        this.afterWelcome = null;
        if (again) again();
      }, (err) => {
        if (err.code !== 'disconnected') {
          this.stopped = true; /* a refused hello (a bad name) would be refused again */
          this.handlers.onHelloRefused(err);
          ws.close();
        }
      });
    };
    ws.onmessage = (e) => this.receive(e.data);
    ws.onclose = () => this.closed(ws);
    clearInterval(this.pingTimer);
    this.pingTimer = setInterval(() => this.sendRaw({ type: 'ping' }), PING_MS);
  }

  receive(text) {
    let msg;
    try {
      msg = JSON.parse(text);
    } catch {
      return;
    }
    if (msg.type === 'error' && msg.code === 'replaced') {
      this.stopped = true;
      this.setStatus('replaced');
    }
    this.handlers.onMessage(msg);
    if (msg.id !== undefined && this.pending.has(msg.id)) {
      const { resolve, reject } = this.pending.get(msg.id);
      this.pending.delete(msg.id);
      if (msg.type === 'error') reject(msg);
      else resolve(msg);
    }
  }

  rejectPending() {
    for (const { reject } of this.pending.values()) reject({ type: 'error', code: 'disconnected', message: 'disconnected' });
    this.pending.clear();
  }

  closed(ws) {
    if (ws !== this.ws) return;
    this.ws = null;
    clearInterval(this.pingTimer); /* nothing to ping until the next connection */
    this.pingTimer = null;
    if (!this.welcomed && this.url !== this.homeUrl) this.url = this.homeUrl; /* that node is gone */
    this.rejectPending();
    if (this.stopped || this.loggingOut) return; /* a logout opens its own new connection */
    const delay = RETRY_MS[Math.min(this.retries, RETRY_MS.length - 1)];
    this.retries++;
    this.setStatus('reconnecting');
    setTimeout(() => {
      if (!this.stopped && !this.ws) this.open();
    }, delay);
  }

  /* After another tab took over: take the seat back here. */
  resume() {
    this.stopped = false;
    this.retries = 0;
    if (!this.ws) this.open();
  }

  setStatus(status) {
    this.status = status;
    this.handlers.onStatus(status);
  }

  sendRaw(msg) {
    if (!this.ws || this.ws.readyState !== WebSocket.OPEN) return false;
    this.ws.send(JSON.stringify(msg));
    return true;
  }

  /* Sends a message with a fresh id; resolves with the reply, rejects with an error message.
   * A `moved` reply is followed to its node (at most MOVED_HOPS times). */
  request(msg, hops = 0) {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      if (!this.sendRaw({ ...msg, id })) {
        reject({ type: 'error', code: 'disconnected', message: 'not connected' });
        return;
      }
      this.pending.set(id, { resolve, reject });
    }).then((reply) => (reply.type === 'moved' ? this.follow(reply, msg, hops) : reply));
  }

  /* Whether a followed `moved` waits for the next welcome to send its request again. */
  following() {
    return this.afterWelcome !== null;
  }

  /* Moves to the node a `moved` names (a path on this host only) and sends msg again there. */
  follow(moved, msg, hops) {
    /* stopped: another tab has the seat now, and a late moved must not take it back */
    if (this.stopped || hops >= MOVED_HOPS || typeof moved.ws !== 'string' || !/^\/[A-Za-z0-9/_-]*$/.test(moved.ws)) {
      return Promise.reject({ type: 'error', code: 'no_such_table', message: 'The table could not be reached.' });
    }
    this.url = new URL(moved.ws, this.homeUrl).href;
    return new Promise((resolve, reject) => {
      this.afterWelcome = () => this.request(msg, hops + 1).then(resolve, reject);
      this.restart('moved');
    });
  }
}
