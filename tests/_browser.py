"""Shared pieces of the browser tests: Debian's chromium + chromium-driver driven by selenium, headless, a throw-away
profile, no background network; a free loopback port."""
import shutil, socket, tempfile
from contextlib import contextmanager
import pytest

CHROMIUM = shutil.which('chromium') or shutil.which('chromium-browser')
DRIVER = shutil.which('chromedriver')
needs_chromium = pytest.mark.skipif(not (CHROMIUM and DRIVER),
    reason="needs Debian's chromium and chromium-driver (apt-get install -y chromium chromium-driver; tools/sysdeps.sh)")


def free_port()->int:
    "A free TCP port on 127.0.0.1."
    with socket.socket() as s: s.bind(('127.0.0.1', 0)); return s.getsockname()[1]


@contextmanager
def chromium(window:str='1280,1000', logs:tuple=('performance',)):
    "A headless Chromium webdriver with a temporary profile; `logs` are the goog:loggingPrefs kinds recorded."
    from selenium import webdriver
    o = webdriver.ChromeOptions(); o.binary_location = CHROMIUM
    prof = tempfile.mkdtemp(prefix='pw-chromium-')
    for a in ('--headless=new', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update',
              '--disable-sync', '--no-first-run', '--disable-dev-shm-usage', f'--user-data-dir={prof}', f'--window-size={window}'):
        o.add_argument(a)
    o.set_capability('goog:loggingPrefs', {k: 'ALL' for k in logs})
    d = webdriver.Chrome(options=o, service=webdriver.ChromeService(executable_path=DRIVER))
    d.set_script_timeout(60)
    try: yield d
    finally: d.quit(); shutil.rmtree(prof, ignore_errors=True)


def offloop_hosts(d)->set:
    "Hosts other than the loopback that the page sent requests to (from Chromium's performance log)."
    import json
    from urllib.parse import urlparse
    hosts = set()
    for e in d.get_log('performance'):
        m = json.loads(e['message'])['message']
        if m.get('method') == 'Network.requestWillBeSent':
            u = urlparse(m['params']['request']['url'])
            if u.scheme in ('http', 'https', 'ws', 'wss'): hosts.add(u.hostname)
    return hosts - {'127.0.0.1', 'localhost'}
