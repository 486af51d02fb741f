"The teleop app as a program uses it: served on a free loopback port, driven through `gradio_client`."
import os, socket, threading
from pathlib import Path
import numpy as np
import pytest
from PIL import Image

os.environ['GRADIO_ANALYTICS_ENABLED'] = 'False'
gradio_client = pytest.importorskip('gradio_client', reason='gradio_client is not installed (pip install gradio gradio_client)')
pytest.importorskip('gradio', reason='gradio is not installed')
from playworld.ui.teleop import launch
from playworld.data.store import EpisodeStore


def free_port()->int:
    with socket.socket() as s: s.bind(('127.0.0.1', 0)); return s.getsockname()[1]

LOCAL = ('127.0.0.1', 'localhost', '::1', '0.0.0.0', '')
attempts = []   # every non-loopback connect or name lookup made by the server or the clients of this module

@pytest.fixture(scope='module')
def no_network():
    "Refuse (and record) any connection or DNS lookup off the loopback while the app and its clients run."
    real_connect, real_gai = socket.socket.connect, socket.getaddrinfo
    def connect(self, addr, *a):
        host = addr[0] if isinstance(addr, tuple) else addr
        if self.family in (socket.AF_INET, socket.AF_INET6) and host not in LOCAL:
            attempts.append(('connect', addr)); raise OSError(f'blocked by the test: connect to {addr}')
        return real_connect(self, addr, *a)
    def gai(host, *a, **k):
        if host not in LOCAL and host is not None: attempts.append(('getaddrinfo', host)); raise socket.gaierror(f'blocked by the test: {host}')
        return real_gai(host, *a, **k)
    socket.socket.connect, socket.getaddrinfo = connect, gai
    yield attempts
    socket.socket.connect, socket.getaddrinfo = real_connect, real_gai

@pytest.fixture(scope='module')
def app(tmp_path_factory, no_network):
    data = tmp_path_factory.mktemp('teleop_data')
    demo = launch(free_port(), data_root=data, block=False)
    yield demo, data
    demo.close()

def client(demo):   # analytics off explicitly: the client's default True ignores GRADIO_ANALYTICS_ENABLED
    return gradio_client.Client(demo.local_url, verbose=False, analytics_enabled=False)
def frame(path)->np.ndarray: return np.asarray(Image.open(path).convert('RGB'))

def test_serves_on_loopback_only(app):
    demo, _ = app
    assert demo.local_url.startswith('http://127.0.0.1:'), demo.local_url
    assert demo.share_url is None

def test_step_gripper_undo_save(app):
    demo, data = app
    c = client(demo)
    f0, _, _ = c.predict('scene reset', 0, 5, None, '', '', True, api_name='/start')
    f1, r1, status = c.predict('e', 1.0, True, api_name='/step')
    assert (frame(f1) != frame(f0)).any(), 'a move must change the imagined frame'
    assert r1 is not None and 'step 1' in status
    f2, _, status = c.predict('grip', 1.0, True, api_name='/step')
    assert 'gripper closed' in status
    info = c.predict(api_name='/info')
    assert info['steps'] == 2 and info['grip'] is True and info['actions'][-1] == [0, 0, 0, 1]
    f3, _, _ = c.predict('n', 1.0, True, api_name='/step')
    fu, _, status = c.predict(True, api_name='/undo')
    np.testing.assert_array_equal(frame(fu), frame(f2))          # undo restores the previous frame exactly
    assert 'step 2' in status
    msg, mp4 = c.predict('imagined', api_name='/save')
    store = EpisodeStore(data/'imagined')
    ep = store.load(len(store) - 1)
    assert ep.source == 'imagined' and ep.policy_id == 'teleop' and len(ep) == 4 + 2
    np.testing.assert_array_equal(ep.actions[3:5], [[1, 0, 0, -1], [0, 0, 0, 1]])
    assert Path(mp4).stat().st_size > 0 and 'saved episode' in msg

def test_two_clients_stay_separate(app):
    demo, _ = app
    a, b = client(demo), client(demo)
    res = {}
    def drive(name, c, cmd, n):
        for _ in range(n): c.predict(cmd, 1.0, False, api_name='/step')
        res[name] = c.predict(api_name='/info')
    ts = [threading.Thread(target=drive, args=('a', a, 'e', 3)), threading.Thread(target=drive, args=('b', b, 'w', 5))]
    for t in ts: t.start()
    for t in ts: t.join(120)
    assert res['a']['session'] != res['b']['session']
    assert res['a']['steps'] == 3 and all(x[0] == 1 for x in res['a']['actions'])
    assert res['b']['steps'] == 5 and all(x[0] == -1 for x in res['b']['actions'])

@pytest.mark.parametrize('bad', ['../escape', '/tmp/abs', 'a/../../b'])
def test_path_traversal_rejected(app, bad):
    demo, data = app
    c = client(demo)
    c.predict('s', 1.0, False, api_name='/step')
    with pytest.raises(Exception, match=r"contains '\.\.'|is absolute"):
        c.predict(bad, api_name='/save')
    with pytest.raises(Exception, match=r"contains '\.\.'|is absolute"):
        c.predict('held-out episode', 0, 0, None, '', bad, False, api_name='/start')
    assert not (data.parent/'escape').exists() and not Path('/tmp/abs').exists()

def test_bad_command_is_a_clear_error(app):
    c = client(app[0])
    with pytest.raises(Exception, match="unknown command 'jump'"):
        c.predict('jump', 1.0, False, api_name='/step')

def test_load_short(app):
    "The load check, short: 2 clients at 10 Hz for 2 s, no errors, no session sees another's state."
    from playworld.ui.teleop import load_clients
    r = load_clients(app[0].local_url, n_clients=2, duration_s=2.0, rate_hz=10.0)
    assert r['errors'] == 0 and r['sessions_separate'], r
    assert r['steps'] >= 4 and r['p50_ms'] > 0

def test_no_outbound_network(app, no_network):
    "Everything above (server and clients) ran with off-loopback sockets blocked; none was even attempted."
    c = client(app[0]); c.predict('n', 1.0, False, api_name='/step')
    assert no_network == [], no_network
