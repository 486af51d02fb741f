"""The teleop app in a real headless Chromium (Debian's `chromium` + `chromium-driver`, driven by selenium): load the
page, press a pad button and the gripper key, see the frame change, save; latency per step (click -> new frame
shown, measured in the page) into test-artifacts/teleop_latency.json; a screenshot in test-artifacts/teleop.png."""
import os, re, json, shutil, socket, statistics, tempfile, time
from pathlib import Path
import pytest

os.environ['GRADIO_ANALYTICS_ENABLED'] = 'False'
from _browser import needs_chromium, free_port, chromium, offloop_hosts
pytestmark = needs_chromium
webdriver = pytest.importorskip('selenium.webdriver', reason='selenium is not installed (pip install selenium)')
pytest.importorskip('gradio', reason='gradio is not installed')
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.support.ui import WebDriverWait
from selenium.common.exceptions import TimeoutException
from playworld.ui.teleop import launch
from playworld.data.store import EpisodeStore

ART = Path(__file__).resolve().parent.parent/'test-artifacts'
WAIT_NEW_FRAME = """
const [id, done] = [arguments[0], arguments[arguments.length - 1]];
const cur = () => { const im = document.querySelector('#pw-imagined img'); return im ? im.src : ''; };
const src0 = cur(), t0 = performance.now();
const check = () => {
  const im = document.querySelector('#pw-imagined img');
  if (im && im.src !== src0 && im.complete && im.naturalWidth > 0) done(performance.now() - t0);
  else if (performance.now() - t0 > 20000) done(-1);
  else setTimeout(check, 1);
};
if (id) document.getElementById(id).click();
setTimeout(check, 0);
"""

@pytest.fixture(scope='module')
def served(tmp_path_factory):
    data = tmp_path_factory.mktemp('teleop_browser')
    th = os.environ.get('PLAYWORLD_TELEOP_THREADS')   # e.g. 1 on a busy machine
    demo = launch(free_port(), data_root=data, block=False, threads=int(th) if th else None)
    yield demo, data
    demo.close()

@pytest.fixture(scope='module')
def browser():
    with chromium('1280,1100', ('performance',)) as d: yield d

def img_src(d):
    return d.execute_script("const im = document.querySelector('#pw-imagined img'); return im ? im.src : null;")

def test_teleop_in_chromium(served, browser):
    demo, data = served; d = browser
    d.get(demo.local_url)
    WebDriverWait(d, 120).until(lambda d: img_src(d))                      # the scene's start frame, on load
    src0 = img_src(d)
    ms = d.execute_async_script(WAIT_NEW_FRAME, 'pw-e')                     # a pad button
    assert ms > 0 and img_src(d) != src0, 'pressing the pad must show a new frame'
    # the gripper key (space): the frame changes and the status says closed
    src1 = img_src(d)
    ActionChains(d).send_keys(Keys.SPACE).perform()
    WebDriverWait(d, 60).until(lambda d: img_src(d) != src1 and 'gripper closed' in d.find_element(By.ID, 'pw-status').text)
    ActionChains(d).send_keys(Keys.SPACE).perform()                          # open again
    WebDriverWait(d, 60).until(lambda d: 'gripper open' in d.find_element(By.ID, 'pw-status').text)
    # latency per step, click -> new frame shown, measured in the page
    lat = [d.execute_async_script(WAIT_NEW_FRAME, f'pw-{c}') for c in ['n', 's', 'e', 'w', 'ne', 'sw', 'n', 's', 'e', 'w', 'nw', 'se']]
    assert min(lat) > 0, lat
    # keyboard arrows move too
    src2 = img_src(d); ActionChains(d).send_keys(Keys.ARROW_LEFT).perform()
    WebDriverWait(d, 60).until(lambda d: img_src(d) != src2)
    # continuous mode repeats the last move at the control rate (a gr.Timer)
    steps = lambda: int(re.search(r'step (\d+)', d.find_element(By.ID, 'pw-status').text).group(1))
    n0 = steps(); d.find_element(By.CSS_SELECTOR, '#pw-continuous input').click()
    WebDriverWait(d, 60).until(lambda d: steps() >= n0 + 3)
    d.find_element(By.CSS_SELECTOR, '#pw-continuous input').click(); time.sleep(1.0)
    n1 = steps(); time.sleep(1.0); assert steps() == n1, 'continuous mode must stop when unticked'
    # a second tab is a second session: its own robot, and it does not move the first one's
    sid = lambda: re.search(r'session (\w+)', d.find_element(By.ID, 'pw-status').text).group(1)
    first, s1 = d.current_window_handle, sid()
    d.switch_to.new_window('tab'); d.get(demo.local_url)
    WebDriverWait(d, 120).until(lambda d: img_src(d) and 'session' in d.find_element(By.ID, 'pw-status').text)
    assert sid() != s1 and steps() == 0
    assert d.execute_async_script(WAIT_NEW_FRAME, 'pw-w') > 0 and steps() == 1
    d.close(); d.switch_to.window(first)
    assert sid() == s1 and steps() == n1
    # side by side with the real simulator, for the screenshot
    d.find_element(By.CSS_SELECTOR, '#pw-side input').click()
    WebDriverWait(d, 60).until(lambda d: d.execute_script("const im = document.querySelector('#pw-real img'); return im && im.complete && im.naturalWidth > 0;"))
    # save
    d.find_element(By.ID, 'pw-save').click()
    WebDriverWait(d, 120).until(lambda d: 'saved episode' in d.find_element(By.ID, 'pw-saved').text)
    store = EpisodeStore(data/'imagined'); ep = store.load(len(store) - 1)
    assert ep.source == 'imagined' and len(ep) >= 4 + 16
    ART.mkdir(exist_ok=True)
    d.save_screenshot(str(ART/'teleop.png'))
    # the page made no request off the loopback
    assert not (off := offloop_hosts(d)), f"requests off the loopback: {off}"
    res = dict(median_ms=statistics.median(lat), p90_ms=sorted(lat)[int(0.9 * (len(lat) - 1))], steps_ms=lat, n=len(lat),
               first_step_ms=ms, size=64, what='pad click -> new imagined frame loaded in the page (headless Chromium, loopback)',
               load_average=list(os.getloadavg()), cpu_count=os.cpu_count(), torch_threads=__import__('torch').get_num_threads(), time=time.strftime('%Y-%m-%dT%H:%M:%SZ', time.gmtime()))
    (ART/'teleop_latency.json').write_text(json.dumps(res, indent=1))
    print(f"teleop step latency in Chromium: median {res['median_ms']:.0f} ms over {len(lat)} steps (load average {res['load_average'][0]:.1f})")


def _png(url):
    "The frame an <img> shows, fetched from the app on the loopback: (H, W, 3) uint8."
    import io, urllib.request
    import numpy as np
    from PIL import Image
    with urllib.request.urlopen(url, timeout=10) as r: return np.asarray(Image.open(io.BytesIO(r.read())).convert('RGB'))


def _gripper(frame):
    "Pixel centroid (row, col) of the gripper: the scene's only near-black pixels (its fingers and bar)."
    import numpy as np
    ys, xs = np.nonzero(frame.max(-1) < 60)
    assert len(ys) >= 4, 'no gripper pixels found'
    return np.array([ys.mean(), xs.mean()])


def _steps(d): return int(re.search(r'step (\d+)', d.find_element(By.ID, 'pw-status').text).group(1))


def _settled(d, wait=0.6):
    "Step count once it stops changing (the last streamed frame shown)."
    n = -1
    while (m := _steps(d)) != n: n = m; time.sleep(wait)
    return n


def test_side_by_side_is_the_same_scene(served, browser):
    "The real panel's step-0 frame equals the imagined context's last frame, and after 5 moves the grippers agree within a few pixels."
    import numpy as np
    demo, _ = served; d = browser
    d.get(demo.local_url)
    WebDriverWait(d, 120).until(lambda d: img_src(d) and _steps(d) == 0)
    d.find_element(By.CSS_SELECTOR, '#pw-side input').click()
    real_src = lambda d: d.execute_script("const im = document.querySelector('#pw-real img'); return im && im.complete && im.naturalWidth > 0 ? im.src : null;")
    WebDriverWait(d, 60).until(real_src)
    first_real, imagined = _png(real_src(d)), _png(img_src(d))
    assert imagined.shape == (64, 64, 3) and (first_real == imagined).all(), 'step 0: the real twin must be the imagined context, pixel for pixel'
    for c in ['e', 'e', 'n', 'n', 'e']:
        src = real_src(d); d.execute_async_script(WAIT_NEW_FRAME, f'pw-{c}')
        WebDriverWait(d, 60).until(lambda d: real_src(d) and real_src(d) != src)
    assert _steps(d) == 5
    gi, gr_ = _gripper(_png(img_src(d))), _gripper(_png(real_src(d)))
    moved = np.linalg.norm(_gripper(_png(real_src(d))) - _gripper(first_real))
    assert moved > 3, f'the real gripper must have moved ({moved:.1f} px)'
    assert np.linalg.norm(gi - gr_) <= 3.0, f'after 5 moves the imagined gripper is at {gi}, the real one at {gr_}'


def test_held_key_moves_at_the_control_rate(served, browser):
    "Holding a move key for 2 s steps the robot continuously, never faster than the control rate; releasing it stops it."
    demo, _ = served; d = browser
    fps = 20.0
    d.get(demo.local_url)
    WebDriverWait(d, 120).until(lambda d: img_src(d) and _steps(d) == 0)
    assert d.execute_script("return document.getElementById('pw-release').offsetParent === null && document.getElementById('pw-hold').offsetParent === null"), 'the key handler\'s controls must not show'
    body = d.find_element(By.TAG_NAME, 'body')
    t0 = time.perf_counter(); ActionChains(d).key_down(Keys.ARROW_RIGHT, body).perform()
    time.sleep(2.0)
    ActionChains(d).key_up(Keys.ARROW_RIGHT, body).perform(); held = time.perf_counter() - t0
    n = _settled(d)
    assert n <= fps * held + 2, f'{n} steps in {held:.2f} s: faster than the {fps:g} Hz control rate'
    # continuous stepping: more steps than a tap's 1-3 (checked below). How close it gets to the control rate depends on
    # the CPU the world model and the browser get (measured on 2 cores: 8.8 steps/s idle, 2.7 beside three busy
    # processes, 0.7 once in a full local run of the suite); that speed is a benchmark's business (`playworld bench imagine`),
    # recorded here in teleop_hold.json but not asserted
    assert n >= 4, f'{n} steps in {held:.2f} s of a held key ({n / held:.1f} steps/s; control rate {fps:g} Hz): the held key did not keep stepping'
    n_held = n
    time.sleep(0.5); assert _steps(d) == n, 'the robot must stop when the key is released'
    ActionChains(d).send_keys_to_element(body, Keys.ARROW_LEFT).perform()          # a tap: a step or two, not a run
    # under a full 2-core load one imagined step can take longer than a fixed pause (0.7 steps/s measured): wait for the
    # tap's first step to show (a tap that never steps fails here, by name), then for the count to settle
    try: WebDriverWait(d, 60, poll_frequency=0.2).until(lambda d: _steps(d) > n)
    except TimeoutException: raise AssertionError('a tapped key took 0 steps in 60 s') from None
    tap = _settled(d, wait=1.5) - n
    assert 1 <= tap <= 3, f'a tapped key took {tap} steps'
    ART.mkdir(exist_ok=True)
    (ART/'teleop_hold.json').write_text(json.dumps(dict(held_s=held, steps=n_held, steps_per_s=n_held / held, control_hz=fps, tap_steps=tap,
                                                        load_average=list(os.getloadavg())), indent=1))
    print(f"held key: {n_held} steps in {held:.2f} s = {n_held / held:.1f} steps/s (control rate {fps:g} Hz)")
