"The main job end to end at smoke size, through the console command a user types."
import json, os, signal, subprocess, sys, time
from pathlib import Path
import pytest

PLAYWORLD = str(Path(sys.executable).parent/'playworld')
HORIZONS = ['1', '4', '8', '16']

NETGUARD = Path(__file__).parent/'netguard'   # its sitecustomize refuses non-loopback network access


@pytest.fixture(scope='session')   # built once per run (make test sends each file whole to one worker)
def smoke_run(tmp_path_factory):
    """The smoke profile, killed with SIGKILL (its papermill kernel too) once the collect stage is done, then run again
    to completion with the network blocked: the rerun must skip collect, redo the interrupted stage and reach no host."""
    tmp = tmp_path_factory.mktemp('smoke'); out, netlog = tmp/'run', tmp/'netlog.txt'
    p = subprocess.Popen([PLAYWORLD, 'run', '--profile', 'smoke', '--out', str(out)], stdout=subprocess.DEVNULL,
                         stderr=subprocess.DEVNULL, start_new_session=True)
    t0 = time.time()
    while not (out/'stages'/'collect.done').exists() and p.poll() is None and time.time() - t0 < 900: time.sleep(0.2)
    time.sleep(1.0)                                   # now inside the next stage's notebook
    os.killpg(p.pid, signal.SIGKILL); p.wait()
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(NETGUARD)] + [x for x in [os.environ.get('PYTHONPATH')] if x]),
               PLAYWORLD_NETLOG=str(netlog))
    r = subprocess.run([PLAYWORLD, 'run', '--profile', 'smoke', '--out', str(out)], capture_output=True, text=True, timeout=1800, env=env)
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-3000:]
    return out, r, netlog

def test_killed_run_resumes(smoke_run):
    out, r, _ = smoke_run
    assert 'collect: done already' in r.stdout, r.stdout
    assert 'train-tabletop: 20_train.ipynb' in r.stdout, r.stdout     # the interrupted stage ran again
    assert not list((out/'stages').glob('.*.tmp')), 'a half-written stage marker was left behind'

def test_no_outbound_network(smoke_run):
    out, r, netlog = smoke_run
    assert not netlog.exists(), f"outbound network attempts during the run: {netlog.read_text()}"

def test_smoke_run_writes_every_metrics_key(smoke_run):
    out, _, _ = smoke_run
    m = json.loads((out/'metrics.json').read_text())
    for d in ('tabletop', 'bridge'):
        for k in ('psnr', 'ssim', 'psnr_copy_last', 'psnr_shuffled_actions'):
            got = m[d]['replay'][k]
            assert all(h in got for h in HORIZONS if h in m[d]['replay']['n']), (d, k, got)
            assert set(m[d]['replay']['n']) >= {'1', '4'}, (d, m[d]['replay']['n'])
            assert all(v == v for v in got.values())   # no NaN
        assert m[d]['episodes'] > 0 and m[d]['train_steps'] > 0 and m[d]['train_seconds'] > 0
    assert m['bridge']['episodes'] == 4          # the smoke profile imports 4 of the 8 Bridge episodes
    # the keys: policy evaluation, failure prediction and the study per mixture (smoke: 1 episode/policy, so
    # the correlations may be nan for constant rates; the keys and the intervals' shape are what is checked here)
    t = m['tabletop']
    for sec in [t['policy_eval']] + [t['study'][x] for x in ('demo', 'play', 'mixed')]:
        for k in ('pearson', 'spearman', 'mmrv'):
            assert (sec[k] is None or isinstance(sec[k], float)) and len(sec[f'{k}_ci'] or [0, 0]) == 2, (k, sec.get(k), sec.get(f'{k}_ci'))   # null: undefined (strict JSON)
        assert (sec['mmrv'] is None and 'real rates are' in sec['mmrv_reason']) or 0 <= sec['mmrv'] <= 1, (sec['mmrv'], sec.get('mmrv_reason'))   # equal real rates: nothing to rank
    assert 0 <= t['failure']['tv_distance'] <= 1 and all(0 <= t['study'][x]['tv_distance'] <= 1 for x in t['study'])
    # every imagined start checked against the main model's training frames; rollouts needed from the outcome variances
    pe = t['policy_eval']; cv = pe['coverage']
    assert len(cv['distance']) == len(pe['per_policy']) * pe['n_episodes'] and cv['threshold'] > 0, cv
    assert cv['n_flagged'] == len(cv['flagged_starts']) == sum(d > cv['threshold'] for d in cv['distance'])
    assert [q['n'] for q in pe['rollouts_needed']['ci_width_curve']][:2] == [5, 10]
    assert [r['budget'] for r in t['study']['play']['scaling']] == [40]
    assert abs(t['study']['demo']['frames'] - 40) <= 31 and t['study']['demo']['coverage']['success_rate'] == 1.0   # demos: successes only
    # the RL ladder's checks live in tests/test_rl_stage.py (the smoke pipeline runs no paper experiment)

def test_smoke_run_artefacts(smoke_run):
    out, p, _ = smoke_run
    for f in ['report.html', 'figures/tabletop_replay_strip.png', 'figures/bridge_replay_strip.png',
              'figures/tabletop_play_strip.png', 'models/tabletop/model/diffusion_pytorch_model.safetensors',
              'data/tabletop/meta/info.json', 'data/bridge/meta/info.json']:
        assert (out/f).exists(), f
    nbs = sorted(x.name for x in (out/'notebooks').glob('*.ipynb'))
    assert nbs == sorted(['collect.ipynb', 'train-tabletop.ipynb', 'train-bridge.ipynb', 'evaluate-tabletop.ipynb',
                          'evaluate-bridge.ipynb', 'study-data.ipynb', 'train-study_demo_40.ipynb', 'train-study_play_40.ipynb',
                          'train-study_mixed_40.ipynb', 'study-evaluate.ipynb', 'report.ipynb']), nbs
    assert (out/'figures'/'study_rollouts.png').exists() and (out/'study'/'data'/'mixed_40'/'meta'/'mixture.json').exists()
    page = (out/'report.html').read_text()
    assert page.count('data:image/png;base64') >= 4 and 'src="http' not in page
    assert 'The PlayWorld study' in page and 'policy evaluation in the world model' in page and 'failure prediction' in page
    assert 'report:' in p.stdout and 'PSNR@8' in p.stdout
    assert 'Toy run: these numbers mean nothing' in page and 'id="glossary"' in page and 'href="#g-copy-last"' in page
    assert 'nan [nan, nan]' not in page and '>nan<' not in page

def test_smoke_run_readable_outputs(smoke_run):
    "Strips labelled and upscaled, progress of long stages in their progress files, executed notebooks that stand alone."
    out, r, _ = smoke_run
    from PIL import Image
    w, h = Image.open(out/'figures'/'tabletop_replay_strip.png').size
    assert h >= 19 + 3 * 130 - 4 and w >= 60 + 2 * 130, (w, h)   # stamps and labels around 128-px frames (64 px shown at 2x)
    recs = [json.loads(l) for l in (out/'stages'/'train-tabletop.progress').read_text().splitlines()]
    bars = [x for x in recs if x.get('bar') == 'train world model']
    assert bars and bars[-1]['n'] == bars[-1]['total'] > 0 and 'loss=' in bars[-1]['postfix'], bars[-1:]
    assert max(x['cell'] for x in recs if 'cell' in x) >= 3
    assert any(x.get('bar') == 'play' for x in map(json.loads, (out/'stages'/'collect.progress').read_text().splitlines()))
    nb = json.loads((out/'notebooks'/'train-tabletop.ipynb').read_text())
    outs = [o for c in nb['cells'] for o in c.get('outputs', [])]
    assert not any('application/vnd.jupyter.widget-view+json' in o.get('data', {}) for o in outs), "a tqdm widget left in the notebook"
    assert any('train world model: 100%' in ''.join(o.get('text', '')) for o in outs), "the bar's final text line"
    assert any('image/png' in o.get('data', {}) for o in outs), "a static PNG beside the plotly loss figure"
    assert 'Kernel is running over TCP' not in r.stderr, r.stderr[-2000:]

def test_rerun_skips_done_stages(smoke_run):
    out, _, _ = smoke_run
    p = subprocess.run([PLAYWORLD, 'run', '--profile', 'smoke', '--out', str(out)], capture_output=True, text=True, timeout=900)
    assert p.returncode == 0, p.stderr[-2000:]
    assert p.stdout.count('done already') == 11, p.stdout

def test_cli_bad_profile():
    p = subprocess.run([PLAYWORLD, 'run', '--profile', 'huge', '--out', '/tmp/x'], capture_output=True, text=True)
    assert p.returncode == 2 and "invalid choice: 'huge'" in p.stderr

def test_evaluate_study_cli(tmp_path):
    """`playworld evaluate study` alone on tiny stores (the shipped held-out play episodes, 3 demos collected here):
    every mixture gets a model, metrics.json has the study keys, the report renders without a main model."""
    demo = tmp_path/'demo'
    r = subprocess.run([PLAYWORLD, 'collect', '--env', 'tabletop', '--mode', 'demo', '--episodes', '3', '--out', str(demo)],
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr[-2000:]
    play = Path(__file__).resolve().parent.parent/'data_samples'/'tabletop_heldout'
    r = subprocess.run([PLAYWORLD, 'evaluate', 'study', '--play', str(play), '--demo', str(demo), '--out', str(tmp_path/'run'),
                        '--budgets', '40', '--steps', '2', '--channels', '8,16', '--episodes', '1'], capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-3000:]
    m = json.loads((tmp_path/'run'/'metrics.json').read_text())['tabletop']['study']
    assert set(m) == {'demo', 'play', 'mixed'} and all(len(m[x]['pearson_ci']) == 2 for x in m)
    assert m['demo']['coverage']['success_rate'] == 1.0 and m['play']['scaling'][0]['train']['steps'] == 2
    assert 'policy_eval' not in json.loads((tmp_path/'run'/'metrics.json').read_text())['tabletop']   # no main model here
    assert 'The PlayWorld study' in (tmp_path/'run'/'report.html').read_text()
    assert '"demo"' in r.stdout and 'report:' in r.stdout
