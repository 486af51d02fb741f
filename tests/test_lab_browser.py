"""The notebooks as a researcher opens them: JupyterLab started headless the way `make lab` starts it (tools/lab.sh:
127.0.0.1, a token, no browser, no news/update checks), a scrubber notebook opened in Debian's headless Chromium
(selenium), all cells run, the widget rendered (no "Loading widget..." / "Error displaying widget"), the slider moved
with the keyboard, the frame image changed and the plotly figure drawn; nothing requested off the loopback, neither by
the page nor by the server and its kernel (tests/netguard refuses and logs such attempts).
Screenshot: test-artifacts/lab_scrubber.png. The user's Jupyter settings are untouched (temp config/data/runtime dirs)."""
import os, json, shutil, socket, subprocess, tempfile, time, secrets
from pathlib import Path
from urllib.request import urlopen
import pytest

ROOT = Path(__file__).resolve().parent.parent
ART = ROOT/'test-artifacts'
from _browser import needs_chromium, free_port, chromium, offloop_hosts
pytestmark = needs_chromium
webdriver = pytest.importorskip('selenium.webdriver', reason='selenium is not installed (pip install selenium)')
pytest.importorskip('jupyterlab', reason='jupyterlab is not installed (pip install jupyterlab; `make setup` installs it)')
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import WebDriverWait

NB_CELLS = ["from playworld.ui.scrubber import Scrubber\ns = Scrubber(0)   # held-out episode 0 replayed in the shipped world model",
            "s"]
# bytes of the frame image shown by the widget (an <img> with a blob: URL), as a short fingerprint
IMG_DIGEST = """
const done = arguments[arguments.length - 1];
const im = document.querySelector('.jp-OutputArea-output .widget-image');
if (!im || !im.complete || !im.naturalWidth) { done(null); return; }
fetch(im.src).then(r => r.arrayBuffer()).then(b => crypto.subtle.digest('SHA-256', b).then(h =>
  done([im.src, b.byteLength, Array.from(new Uint8Array(h)).map(x => x.toString(16).padStart(2, '0')).join('')])))
  .catch(e => done(null));
"""

@pytest.fixture(scope='module')
def lab(tmp_path_factory):
    tmp = tmp_path_factory.mktemp('lab')
    (tmp/'work').mkdir()
    import nbformat
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(c) for c in NB_CELLS],
                                  metadata=dict(kernelspec=dict(name='python3', display_name='Python 3', language='python')))
    nbformat.write(nb, tmp/'work'/'scrub.ipynb')
    port, token = free_port(), secrets.token_hex(16)
    env = {**os.environ, 'JUPYTER_CONFIG_DIR': str(tmp/'config'), 'JUPYTER_DATA_DIR': str(tmp/'data'),
           'JUPYTER_RUNTIME_DIR': str(tmp/'runtime'), 'JUPYTER_PLATFORM_DIRS': '1', 'IPYTHONDIR': str(tmp/'ipython'),
           'LAB_PORT': str(port), 'LAB_TOKEN': token, 'LAB_DIR': str(tmp/'work'),
           'BIN': str(Path(__import__('sys').executable).parent), 'OMP_NUM_THREADS': '1',
           # the server and its kernels refuse (and log) any connection or name lookup off the loopback
           'PYTHONPATH': os.pathsep.join([str(Path(__file__).parent/'netguard'), os.environ.get('PYTHONPATH', '')]),
           'PLAYWORLD_NETLOG': str(tmp/'netlog')}
    log = open(tmp/'lab.log', 'w')
    p = subprocess.Popen(['bash', str(ROOT/'tools'/'lab.sh'), '--LabApp.expose_app_in_browser=True',
                          f'--LabApp.workspaces_dir={tmp/"workspaces"}', f'--LabApp.user_settings_dir={tmp/"settings"}'],
                         env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    url = f'http://127.0.0.1:{port}'
    try:
        for _ in range(240):
            if p.poll() is not None: raise RuntimeError(f"jupyter lab exited: {(tmp/'lab.log').read_text()[-3000:]}")
            try: urlopen(f'{url}/api/status?token={token}', timeout=2).read(); break
            except OSError: time.sleep(0.25)
        else: raise RuntimeError(f"jupyter lab did not answer in 60 s: {(tmp/'lab.log').read_text()[-3000:]}")
        yield dict(url=url, token=token, tmp=tmp, log=tmp/'lab.log', netlog=tmp/'netlog')
    finally:
        p.terminate()
        try: p.wait(20)
        except subprocess.TimeoutExpired: p.kill(); p.wait()
        log.close()

@pytest.fixture(scope='module')
def browser():
    with chromium('1280,1000', ('performance', 'browser')) as d: yield d

def outputs_text(d):
    return d.execute_script("return Array.from(document.querySelectorAll('.jp-OutputArea-output')).map(e => e.innerText).join('\\n');")

def test_lab_page_config_offline(lab):
    "The server side of 'no network at start': the news feed is off in the page config (frontend asks for nothing)."
    html = urlopen(f"{lab['url']}/lab?token={lab['token']}", timeout=30).read().decode()
    cfg = json.loads(html.split('id="jupyter-config-data" type="application/json">')[1].split('</script>')[0])
    assert cfg['news'] == {'disabled': True}, cfg.get('news')
    assert '@jupyterlab/apputils-extension:announcements' in cfg['disabledExtensions'], cfg['disabledExtensions']
    assert cfg.get('extensionManager', {}).get('name') != 'PyPI', cfg.get('extensionManager')
    exts = {e['name'] for e in cfg['federated_extensions']}
    assert {'@jupyter-widgets/jupyterlab-manager', 'anywidget', 'jupyterlab-plotly'} <= exts, exts

def test_scrubber_in_lab(lab, browser):
    d, t0 = browser, time.time()
    d.get(f"{lab['url']}/lab/tree/scrub.ipynb?token={lab['token']}")
    WebDriverWait(d, 120).until(lambda d: d.execute_script(
        "const a = window.jupyterapp; const w = a && a.shell.currentWidget;"
        "return !!(w && w.sessionContext && w.sessionContext.session && w.sessionContext.session.kernel"
        " && w.sessionContext.session.kernel.status === 'idle');"))
    t_kernel = time.time() - t0
    d.execute_script("window.jupyterapp.commands.execute('notebook:run-all-cells');")
    def rendered(d):
        txt = outputs_text(d)
        assert 'Error displaying widget' not in txt and 'Traceback' not in txt, txt[-2000:]
        return (d.find_elements(By.CSS_SELECTOR, '.jp-OutputArea-output .widget-image') and
                d.find_elements(By.CSS_SELECTOR, '.jp-OutputArea-output .js-plotly-plot') and
                d.find_elements(By.CSS_SELECTOR, '.jp-OutputArea-output .noUi-handle') and
                'Loading widget' not in txt and d.execute_async_script(IMG_DIGEST))
    WebDriverWait(d, 300).until(rendered)   # kernel: imports torch + diffusers, replays 56 frames
    t_render = time.time() - t0
    label = lambda: d.execute_script("return Array.from(document.querySelectorAll('.jp-OutputArea-output .widget-label'))"
                                     ".map(e => e.innerText).find(t => /^frame \\d+\\//.test(t)) || '';")   # 'frame t/T-1 (s) ...'
    assert label().startswith('frame 0/'), label()
    src0, n0, h0 = d.execute_async_script(IMG_DIGEST)
    # the slider, moved with the keyboard on its handle (what a user does after clicking it)
    handle = d.find_element(By.CSS_SELECTOR, '.jp-OutputArea-output .widget-hslider .noUi-handle')
    d.execute_script("arguments[0].scrollIntoView({block: 'center'});", handle)
    handle.click()
    for _ in range(5): handle.send_keys(Keys.ARROW_RIGHT)
    WebDriverWait(d, 60).until(lambda d: label().startswith('frame 5/'))
    WebDriverWait(d, 60).until(lambda d: (r := d.execute_async_script(IMG_DIGEST)) and r[2] != h0)
    src1, n1, h1 = d.execute_async_script(IMG_DIGEST)
    assert h1 != h0 and src1 != src0, 'moving the slider must change the displayed frame'
    # the PSNR/SSIM curve: plotly drew its traces (SVG paths) and the marker followed the slider
    # (plotly.js draws the FigureWidget's traces asynchronously, after the div exists: on loaded CI cores that can
    # come after the frame image, so wait for them rather than read the count once)
    n_traces = lambda: d.execute_script("return document.querySelectorAll('.jp-OutputArea-output .js-plotly-plot .scatterlayer .trace').length;")
    try: WebDriverWait(d, 120).until(lambda d: n_traces() >= 3)
    except Exception: pass
    assert n_traces() >= 3, f"plotly drew {n_traces()} traces of the PSNR/SSIM curve (expected >= 3)"
    txt = outputs_text(d)
    assert 'Loading widget' not in txt and 'Error displaying widget' not in txt
    ART.mkdir(exist_ok=True)
    d.execute_script("document.querySelector('.jp-OutputArea-output .widget-vbox').scrollIntoView({block: 'start'});")
    time.sleep(0.5)
    d.save_screenshot(str(ART/'lab_scrubber.png'))
    # the page (JupyterLab and the widgets) made no request off the loopback
    assert not (off := offloop_hosts(d)), f"requests off the loopback: {off}"
    netlog = lab['netlog'].read_text() if lab['netlog'].exists() else ''
    assert not netlog, f"the lab server or its kernel tried to reach the network:\n{netlog}"
    errs = [e['message'] for e in d.get_log('browser') if e['level'] == 'SEVERE' and 'favicon' not in e['message']]
    res = dict(open_to_kernel_idle_s=round(t_kernel, 1), open_to_rendered_s=round(t_render, 1), slider_to_frame_s=round(time.time() - t0 - t_render, 1),
               frame_png_bytes=[n0, n1], console_errors=errs[:10], time=time.strftime('%Y-%m-%dT%H:%M:%SZ', time.gmtime()))
    (ART/'lab_scrubber.json').write_text(json.dumps(res, indent=1))
    assert 'official Jupyter news' not in d.find_element(By.TAG_NAME, 'body').text, 'the news prompt covers the page'
    print(f"lab scrubber: notebook opened -> widget rendered in {t_render:.1f} s; console errors: {len(errs)}")
