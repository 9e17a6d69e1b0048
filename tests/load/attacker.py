#!/usr/bin/env python3
"""
attacker — one hostile address against a running teahouse, for the load run that checks honest
players are unaffected (deploy/OPERATIONS.md, "Under attack"). Standard library only.

From one source address it keeps --conns WebSocket connections busy for --seconds, each looping
over the cheap attacks the server must absorb: token-less hellos (new guests), full lobby lists,
joins of guessed private codes, table creation past the cap, chat floods and junk frames, as fast
as the server answers. It prints what it was answered, by kind, once a second and at the end.

    python3 tests/load/attacker.py --port 8080 --conns 32 --seconds 30
"""
import argparse
import base64
import collections
import json
import os
import random
import select
import socket
import string
import struct
import sys
import time

ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"


def frame(text):
    payload = text.encode()
    mask = os.urandom(4)
    head = bytes([0x81])
    n = len(payload)
    if n < 126:
        head += bytes([0x80 | n])
    elif n < 65536:
        head += bytes([0x80 | 126]) + struct.pack(">H", n)
    else:
        head += bytes([0x80 | 127]) + struct.pack(">Q", n)
    return head + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload))


class Conn:
    def __init__(self, host, port, source):
        self.sock = socket.create_connection((host, port), timeout=5, source_address=(source, 0))
        key = base64.b64encode(os.urandom(16)).decode()
        self.sock.sendall((f"GET /ws HTTP/1.1\r\nHost: {host}:{port}\r\nUpgrade: websocket\r\n"
                           f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
                           "Sec-WebSocket-Version: 13\r\n\r\n").encode())
        head = b""
        while b"\r\n\r\n" not in head:
            chunk = self.sock.recv(4096)
            if not chunk:
                raise ConnectionError("closed during the handshake")
            head += chunk
        if b" 101 " not in head.split(b"\r\n", 1)[0]:
            raise ConnectionError(head.split(b"\r\n", 1)[0].decode(errors="replace"))
        self.buf = head.split(b"\r\n\r\n", 1)[1]
        self.sock.setblocking(False)

    def send(self, obj):
        self.sock.sendall(frame(json.dumps(obj)))

    def messages(self):
        try:
            chunk = self.sock.recv(1 << 16)
        except BlockingIOError:
            chunk = None
        if chunk == b"":
            raise ConnectionError("closed")
        if chunk:
            self.buf += chunk
        out = []
        while len(self.buf) >= 2:
            op, n = self.buf[0] & 0x0F, self.buf[1] & 0x7F
            at = 2
            if n == 126:
                if len(self.buf) < 4:
                    break
                n, at = struct.unpack(">H", self.buf[2:4])[0], 4
            elif n == 127:
                if len(self.buf) < 10:
                    break
                n, at = struct.unpack(">Q", self.buf[2:10])[0], 10
            if len(self.buf) < at + n:
                break
            payload, self.buf = self.buf[at:at + n], self.buf[at + n:]
            if op == 8:
                raise ConnectionError("closed by the server")
            if op == 1:
                try:
                    out.append(json.loads(payload))
                except ValueError:
                    pass
        return out


def attacks(rng):
    code = "".join(rng.choice(ALPHABET) for _ in range(12))
    return rng.choice([
        {"type": "hello", "v": 1, "name": "Flood"},
        {"type": "list_tables", "limit": 50},
        {"type": "join_table", "code": code},
        {"type": "create_table", "game": "tiengow", "options": {}, "public": True},
        {"type": "chat", "code": code, "text": "茶" * 300},
        {"type": "nonsense", "junk": "x" * 1000},
    ])


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--host", default="127.0.0.1")
    ap.add_argument("--port", type=int, required=True)
    ap.add_argument("--source", default="127.0.0.1", help="the one address the attack comes from")
    ap.add_argument("--conns", type=int, default=32)
    ap.add_argument("--seconds", type=float, default=30)
    args = ap.parse_args()
    rng = random.Random(7)
    answers = collections.Counter()
    conns, refused = [], collections.Counter()
    end = time.monotonic() + args.seconds
    sent = 0
    next_report = time.monotonic() + 1
    while time.monotonic() < end:
        while len(conns) < args.conns and time.monotonic() < end:
            try:
                c = Conn(args.host, args.port, args.source)
                c.send({"type": "hello", "v": 1, "name": "Flood"})
                conns.append(c)
            except (OSError, ConnectionError) as e:
                refused[type(e).__name__ + ": " + str(e)[:40]] += 1
                break
        for c in list(conns):
            try:
                for m in c.messages():
                    answers[m.get("type") + (":" + m["code"] if m.get("type") == "error" else "")] += 1
                c.send(attacks(rng))
                sent += 1
            except (OSError, ConnectionError):
                answers["connection closed by the server"] += 1
                conns.remove(c)
                c.sock.close()
        select.select([c.sock for c in conns] or [], [], [], 0.002)
        if time.monotonic() >= next_report:
            next_report += 1
            print(f"attacker: {len(conns)} open, {sent} sent, answers {dict(answers.most_common(6))}",
                  file=sys.stderr)
    print(json.dumps({"sent": sent, "answers": answers, "connects_refused": refused}, indent=1))


if __name__ == "__main__":
    main()
