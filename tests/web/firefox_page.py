#!/usr/bin/env python3
"""Loads a page in headless Firefox and says what it shows once the wasm has run (docs/web.md, "Browsers tried").

Firefox's own --screenshot is taken at the load event, before the page has fetched and run the wasm, and Firefox has
no virtual time budget (what the chromium tests wait with). So this drives Firefox over its Remote Agent instead:
WebDriver BiDi, JSON over a websocket on --remote-debugging-port, with Python's standard library only (no geckodriver,
no npm, no pip). It sets the viewport to SIZE, navigates, waits until the page writes #result (?run=N) or #error,
prints #result's text (or "error: " and #error's), and with --screenshot writes the viewport as a PNG. With --keys,
then presses each key in turn as a user does (input.performActions: the browser's own key events) and prints, after
each, "KEY: " and what the JavaScript expression --probe says then.

Usage: firefox_page.py [--size 1280x800] [--screenshot FILE] [--timeout 120] [--firefox firefox-esr]
                       [--keys 'K K ...' --probe EXPRESSION] URL
(a key: one character, or Escape, Tab, Enter, F1, ArrowLeft, ArrowRight, ArrowUp, ArrowDown, PageUp, PageDown, Home,
End; or click:SELECTOR, a click of the mouse's left button in the middle of the element the CSS selector finds)
Exit status: 0 when the page wrote #result, 1 when it did not (an error, or not in time), 2 when Firefox did not
start or answer.
"""
import argparse
import base64
import json
import os
import shutil
import socket
import struct
import subprocess
import sys
import tempfile
import time


class BiDi:
    """A WebDriver BiDi session on Firefox's Remote Agent: a websocket client (RFC 6455) as small as it can be."""

    def __init__(self, port):
        self.sock = socket.create_connection(('127.0.0.1', port), timeout=60)
        key = base64.b64encode(os.urandom(16)).decode()
        # No Origin header: the Remote Agent refuses requests with an origin it was not told to allow.
        self.sock.sendall((f'GET /session HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\n'
                           f'Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n')
                          .encode())
        head = b''
        while b'\r\n\r\n' not in head:
            chunk = self.sock.recv(4096)
            if not chunk:
                raise RuntimeError('the Remote Agent closed the connection')
            head += chunk
        head, self.buf = head.split(b'\r\n\r\n', 1)
        if b' 101 ' not in head.split(b'\r\n', 1)[0]:
            raise RuntimeError('the Remote Agent refused the websocket: ' + head.decode(errors='replace'))
        self.next_id = 0
        self.call('session.new', capabilities={})

    def _read(self, n):
        while len(self.buf) < n:
            chunk = self.sock.recv(1 << 16)
            if not chunk:
                raise RuntimeError('the Remote Agent closed the connection')
            self.buf += chunk
        out, self.buf = self.buf[:n], self.buf[n:]
        return out

    def _send(self, opcode, payload):
        # A client's frames are masked (RFC 6455, 5.3); the mask is any 4 bytes.
        mask = os.urandom(4)
        n = len(payload)
        head = bytes([0x80 | opcode])
        if n < 126:
            head += bytes([0x80 | n])
        elif n < 1 << 16:
            head += bytes([0x80 | 126]) + struct.pack('>H', n)
        else:
            head += bytes([0x80 | 127]) + struct.pack('>Q', n)
        self.sock.sendall(head + mask + bytes(b ^ mask[i & 3] for i, b in enumerate(payload)))

    def _message(self):
        data = b''
        while True:
            b0, b1 = self._read(2)
            n = b1 & 0x7f
            if n == 126:
                n = struct.unpack('>H', self._read(2))[0]
            elif n == 127:
                n = struct.unpack('>Q', self._read(8))[0]
            mask = self._read(4) if b1 & 0x80 else None
            payload = self._read(n)
            if mask:
                payload = bytes(b ^ mask[i & 3] for i, b in enumerate(payload))
            opcode = b0 & 0x0f
            if opcode == 8:
                raise RuntimeError('the Remote Agent closed the websocket')
            if opcode == 9:
                self._send(10, payload)
                continue
            if opcode in (0, 1, 2):
                data += payload
                if b0 & 0x80:
                    return json.loads(data)

    def call(self, method, **params):
        self.next_id += 1
        self._send(1, json.dumps({'id': self.next_id, 'method': method, 'params': params}).encode())
        while True:  # events (log entries and such) come in between: only the answer counts
            answer = self._message()
            if answer.get('id') == self.next_id:
                if answer.get('type') == 'error':
                    raise RuntimeError(f'{method}: {answer.get("error")}: {answer.get("message")}')
                return answer['result']

    def text(self, context, expression):
        r = self.call('script.evaluate', expression=expression, target={'context': context}, awaitPromise=False)
        return r.get('result', {}).get('value', '') if r.get('type') == 'success' else ''


# WebDriver's codes of the keys that are not characters.
SPECIAL_KEYS = {'Escape': '\ue00c', 'Tab': '\ue004', 'Enter': '\ue007', 'F1': '\ue031', 'ArrowLeft': '\ue012',
                'ArrowUp': '\ue013', 'ArrowRight': '\ue014', 'ArrowDown': '\ue015', 'PageUp': '\ue00e',
                'PageDown': '\ue00f', 'Home': '\ue011', 'End': '\ue010'}


def press(bidi, context, key):
    if key.startswith('click:'):
        found = bidi.call('script.evaluate', target={'context': context}, awaitPromise=False,
                          expression=f'document.querySelector({json.dumps(key[6:])})')
        node = found.get('result', {})
        if found.get('type') != 'success' or 'sharedId' not in node:
            raise RuntimeError(f'{key}: no such element')
        origin = {'type': 'element', 'element': {'sharedId': node['sharedId']}}
        bidi.call('input.performActions', context=context, actions=[{
            'type': 'pointer', 'id': 'mouse', 'parameters': {'pointerType': 'mouse'}, 'actions': [
                {'type': 'pointerMove', 'x': 0, 'y': 0, 'origin': origin},
                {'type': 'pointerDown', 'button': 0}, {'type': 'pointerUp', 'button': 0}]}])
    else:
        value = SPECIAL_KEYS.get(key, key)
        bidi.call('input.performActions', context=context, actions=[{'type': 'key', 'id': 'keyboard', 'actions': [
            {'type': 'keyDown', 'value': value}, {'type': 'keyUp', 'value': value}]}])
    # A frame later, so that what the key changed is drawn.
    bidi.call('script.evaluate', target={'context': context}, awaitPromise=True,
              expression='new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))')


def start_firefox(firefox, profile, log):
    """Firefox headless on a fresh profile, its Remote Agent on a free port (port 0: Firefox picks one and writes it
    into the profile's WebDriverBiDiServer.json)."""
    os.mkdir(profile)
    proc = subprocess.Popen([firefox, '--headless', '--no-remote', '--profile', profile, '--remote-debugging-port',
                             '0', 'about:blank'], stdout=subprocess.DEVNULL, stderr=log)
    deadline = time.time() + 60
    while time.time() < deadline and proc.poll() is None:
        time.sleep(0.2)
        try:
            with open(os.path.join(profile, 'WebDriverBiDiServer.json')) as f:
                return proc, int(json.load(f)['ws_port'])
        except (OSError, ValueError, KeyError):
            pass
    proc.kill()
    proc.wait()
    with open(log.name, errors='replace') as f:
        raise RuntimeError('firefox did not start its Remote Agent: ' + f.read()[-2000:])


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    ap.add_argument('--size', default='1280x800')
    ap.add_argument('--screenshot')
    ap.add_argument('--timeout', type=float, default=120)
    ap.add_argument('--firefox', default='firefox-esr')
    ap.add_argument('--keys', default='')
    ap.add_argument('--probe', default="''")
    ap.add_argument('url')
    a = ap.parse_args()
    width, height = map(int, a.size.split('x'))
    work = tempfile.mkdtemp(prefix='iwarp-firefox-')
    proc = None
    try:
        with open(os.path.join(work, 'firefox.log'), 'w') as log:
            try:
                proc, port = start_firefox(a.firefox, os.path.join(work, 'profile'), log)
                bidi = BiDi(port)
                context = bidi.call('browsingContext.getTree')['contexts'][0]['context']
                bidi.call('browsingContext.setViewport', context=context,
                          viewport={'width': width, 'height': height}, devicePixelRatio=1)
                bidi.call('browsingContext.navigate', context=context, url=a.url, wait='complete')
            except (RuntimeError, OSError) as e:
                print(f'firefox: {e}', file=sys.stderr)
                return 2
            deadline = time.time() + a.timeout
            result = error = ''
            while not (result or error) and time.time() < deadline:
                time.sleep(0.2)
                result = bidi.text(context, "document.getElementById('result')?.textContent || ''")
                error = bidi.text(context, "(e => e && !e.hidden ? e.textContent : '')"
                                           "(document.getElementById('error'))")
            if a.screenshot:
                # Two frames after the page wrote #result, so that what it drew then is on the screen.
                bidi.call('script.evaluate', target={'context': context}, awaitPromise=True,
                          expression='new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))')
                png = bidi.call('browsingContext.captureScreenshot', context=context)['data']
                with open(a.screenshot, 'wb') as f:
                    f.write(base64.b64decode(png))
            print(result or ('error: ' + error if error else 'no result in time'))
            if result:
                for key in a.keys.split():
                    press(bidi, context, key)
                    print(f'{key}: {bidi.text(context, f"String({a.probe})")}')
            return 0 if result else 1
    finally:
        if proc:
            proc.kill()
            proc.wait()
        shutil.rmtree(work, ignore_errors=True)


if __name__ == '__main__':
    sys.exit(main())
