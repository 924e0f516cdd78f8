#!/usr/bin/env python3
"""Frames per second of the web page (docs/web.md, "Frames per second") on an 8x8 array where every link is busy:
programs/net/neighbours.s (each cell swaps 4096 words with each neighbour, the array the SDL2 view's frame rate is
measured on, docs/viewer.md) as a demo of one's own, written by `iwarp demo FOLDER/NAME.txt --web`, served by
python3 -m http.server, run to a clock where the links are busy (?run=N, default 20000: before, the cells fill
their buffers) and played in headless Chromium in real time for a few seconds at each speed asked: the page's
?fps=S counts requestAnimationFrame's calls, its draws and the clocks run, and writes them into #fps.

A virtual time budget (what the tests use) would make the browser's clock, and so the frame rate, virtual: this
drives Chromium over --remote-debugging-pipe instead (the DevTools protocol as NUL-separated JSON on file
descriptors 3 and 4: no WebDriver, no websocket client, nothing but Python's standard library).

Usage: scripts/web-fps.py [--iwarp build/tools/iwarp] [--page build-web] [--seconds 5] [--size 1280x800]
                          [--from 20000] [SPEED ...]   (clocks per second; default 20 1000)
"""
import argparse
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


class Chromium:
    """Headless Chromium driven over --remote-debugging-pipe: one page, navigated and asked for a value."""

    def __init__(self, size, profile):
        to_child, self.send_fd = os.pipe()
        self.recv_fd, from_child = os.pipe()

        def fds():  # the child reads commands on 3 and writes answers on 4 (out of the way first: they may be 3 or 4)
            r, w = os.dup(to_child), os.dup(from_child)
            os.dup2(r, 3)
            os.dup2(w, 4)

        self.proc = subprocess.Popen(
            ['chromium', '--headless=new', '--no-sandbox', '--disable-gpu', '--no-first-run', '--hide-scrollbars',
             f'--window-size={size}', f'--user-data-dir={profile}', '--remote-debugging-pipe', 'about:blank'],
            preexec_fn=fds, pass_fds=(3, 4), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        os.close(to_child)
        os.close(from_child)
        self.next_id, self.buf = 0, b''
        targets = self.call('Target.getTargets')['targetInfos']
        page = next(t for t in targets if t['type'] == 'page')
        self.session = self.call('Target.attachToTarget', targetId=page['targetId'], flatten=True)['sessionId']

    def call(self, method, session=None, **params):
        self.next_id += 1
        msg = {'id': self.next_id, 'method': method, 'params': params}
        if session:
            msg['sessionId'] = session
        os.write(self.send_fd, json.dumps(msg).encode() + b'\0')
        while True:
            while b'\0' not in self.buf:
                chunk = os.read(self.recv_fd, 1 << 16)
                if not chunk:
                    raise RuntimeError('chromium closed the pipe')
                self.buf += chunk
            raw, self.buf = self.buf.split(b'\0', 1)
            answer = json.loads(raw)
            if answer.get('id') == self.next_id:
                if 'error' in answer:
                    raise RuntimeError(f'{method}: {answer["error"]}')
                return answer['result']

    def navigate(self, url):
        self.call('Page.navigate', self.session, url=url)

    def text(self, element_id):
        r = self.call('Runtime.evaluate', self.session,
                      expression=f"(document.getElementById('{element_id}') || {{}}).textContent || ''")
        return r['result'].get('value', '')

    def close(self):
        self.proc.kill()
        self.proc.wait()


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    ap.add_argument('--iwarp', default=os.path.join(ROOT, 'build/tools/iwarp'))
    ap.add_argument('--page', default=os.path.join(ROOT, 'build-web'), help='the page scripts/build-web.sh built')
    ap.add_argument('--seconds', type=float, default=5)
    ap.add_argument('--size', default='1280x800')
    ap.add_argument('--from', dest='start', type=int, default=20000, help='the clock to start playing at')
    ap.add_argument('speeds', nargs='*', type=int, default=[20, 1000])
    a = ap.parse_args()
    work = tempfile.mkdtemp(prefix='iwarp-web-fps-')
    server = chromium = None
    try:
        demo = os.path.join(work, 'demo')
        os.mkdir(demo)
        shutil.copy(os.path.join(ROOT, 'programs/net/neighbours.s'), demo)
        with open(os.path.join(demo, 'neighbours.run'), 'w') as f:
            f.write('array 8x8\nprogram neighbours neighbours.s\ncells all neighbours 4096\n')
        with open(os.path.join(demo, 'neighbours.txt'), 'w') as f:
            f.write('title: 8x8, every link busy\n---\nEvery cell swaps 4096 words with each of its four '
                    'neighbours (programs/net/neighbours.s).\n')
        site = os.path.join(work, 'site')
        subprocess.run([a.iwarp, 'demo', os.path.join(demo, 'neighbours.txt'), '--web', site, '--page', a.page],
                       check=True, stdout=subprocess.DEVNULL)
        s = socket.socket()
        s.bind(('127.0.0.1', 0))
        port = s.getsockname()[1]
        s.close()
        server = subprocess.Popen([sys.executable, '-m', 'http.server', str(port), '--bind', '127.0.0.1',
                                   '--directory', site], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        chromium = Chromium(a.size.replace('x', ','), os.path.join(work, 'profile'))
        time.sleep(0.5)
        for speed in a.speeds:
            chromium.navigate(f'http://127.0.0.1:{port}/?run={a.start}&fps={a.seconds:g}&speed={speed}')
            deadline = time.time() + a.seconds + 120
            got = ''
            while not got and time.time() < deadline:
                time.sleep(0.25)
                got = chromium.text('fps') or (('error: ' + chromium.text('error')) if chromium.text('error') else '')
            print(f'speed {speed}: {got or "no answer"}', flush=True)
    finally:
        if chromium:
            chromium.close()
        if server:
            server.kill()
        shutil.rmtree(work, ignore_errors=True)


if __name__ == '__main__':
    main()
