"""The object-survival study with the smoke parameters from a tiny two-camera checkpoint made here: through its stage
notebook (papermill; the track arm grows block track maps and goes through the same evaluation), then `playworld
experiment wm_horizon` into the same folder, which reuses every trained arm and every measurement (same metrics but
for timings); the metrics carry every arm with its steps, costs and block survival with consistent intervals; bad
parameters fail naming themselves; another budget for an arm already trained is refused."""
import json, time
from pathlib import Path
import pytest

from _stages import ROOT, run_papermill, run_cli, without, refused
NB = ROOT/'nbs'/'stages'/'85_wm_horizon.ipynb'
SMOKE = dict(n_train=4, arms=['baseline', 'anchor', 'track'], budget_s=60.0, max_train_steps=2, n_probe=2, probe_batch=2, n_eval=2, steps=12, horizons=[4], batch_size=2)
TIMING = ('arms.start.seconds_per_frame', 'arms.baseline.seconds_per_frame', 'arms.anchor.seconds_per_frame', 'arms.track.seconds_per_frame')

@pytest.fixture(scope='module')
def tiny(tmp_path_factory)->Path:
    "A two-camera world model of the tabletop's frames and actions, small enough to fine-tune in seconds."
    from playworld.wm.model import ActionVideoDenoiser
    d = tmp_path_factory.mktemp('tinywm')
    ActionVideoDenoiser(size=64, width=128, n_views=2, view_layout='views', cameras=('observation.images.top', 'observation.images.front'),
                        block_out_channels=(8, 16), norm_num_groups=4, fps=20.0, n_sampling_steps=1).save_pretrained(d)
    return d

def test_wm_horizon_stage_smoke(tmp_path, tiny):
    from playworld.studies.wm_horizon import Params, section
    assert {k: v for k, v in SMOKE.items()} == {k: v for k, v in Params.PRESETS['smoke'].items()}
    t0 = time.time(); run = tmp_path/'run'
    args = ['-p', 'out_dir', str(run), '-p', 'init_from', str(tiny), '-y', f'arms: {SMOKE["arms"]}', '-y', f'horizons: {SMOKE["horizons"]}']
    args += [x for k, v in SMOKE.items() if k not in ('arms', 'horizons') for x in ('-p', k, str(v))]
    r = run_papermill(NB, tmp_path/'out.ipynb', *args, timeout=600, log_output=False)
    assert r.returncode == 0, r.stderr[-3000:]
    m = json.loads((run/'metrics'/'tabletop.wm_horizon.json').read_text())
    assert list(m['arms']) == ['start', 'baseline', 'anchor', 'track'] and m['episodes'] == SMOKE['n_eval']
    for name, a in m['arms'].items():
        assert a['steps'] == (0 if name == 'start' else SMOKE['max_train_steps'])           # the budget buys more; the cap stops it
        assert a['cost']['s_per_step'] > 0 and a['cost']['s_per_frame_b1'] > 0 and a['cost']['probe_batch'] == 2
        for cam in ('top', 'front', 'all'):
            for h in ('4', 'end', 'mean'):
                s = a['survival']['by_camera'][cam][h]
                assert 0 <= s['n'] <= SMOKE['n_eval']
                if s['visible_frac'] is not None:
                    lo, hi = s['visible_frac_ci']; assert 0 <= lo <= s['visible_frac'] <= hi <= 1
        assert set(a['judge_imagined']) >= {'accuracy', 'tpr', 'fpr', 'n'} and a['judge_imagined']['n'] == SMOKE['n_eval']
    assert m['arms']['anchor']['levers'] == {'n_anchor': 1}
    cfg = json.loads((run/'wm_horizon'/'arms'/'anchor'/'model'/'config.json').read_text())
    assert cfg['n_anchor'] == 1 and cfg['n_views'] == 2                                      # grown from the tiny model
    cfg = json.loads((run/'wm_horizon'/'arms'/'track'/'model'/'config.json').read_text())
    assert cfg['n_track'] == 3 and cfg['n_anchor'] == 0                                      # block track maps on every frame
    assert (run/'figures'/'wm_horizon.png').stat().st_size > 0
    h = section(m, run)
    assert h.startswith('<h2>') and h.count('<tr>') == 6 and 'base64' in h
    print(f'wm_horizon smoke stage: {time.time() - t0:.0f} s')
    # the same study through the CLI into the same folder: every arm and measurement reused
    t1 = time.time()
    r = run_cli('experiment', 'wm_horizon', '--profile', 'smoke', '--set', f'wm_horizon.init_from={tiny}', '--out', run, timeout=600)
    assert r.returncode == 0, r.stderr[-3000:]
    c = json.loads((run/'metrics'/'tabletop.wm_horizon.json').read_text())
    assert without(c, TIMING) == without(m, TIMING)
    assert '<h2>How long the world model keeps the objects' in (run/'report.html').read_text()
    print(f'wm_horizon reused by the CLI: {time.time() - t1:.0f} s')
    # another budget for an arm already trained: refused by name, nothing overwritten
    r = run_cli('experiment', 'wm_horizon', '--profile', 'smoke', '--set', f'wm_horizon.init_from={tiny}', '--set', 'wm_horizon.max_train_steps=3', '--out', run, timeout=600)
    assert r.returncode != 0 and 'arm baseline' in r.stderr and 'steps: stored 2, asked 3' in r.stderr, r.stderr[-2000:]
    assert json.loads((run/'metrics'/'tabletop.wm_horizon.json').read_text()) == c

@pytest.mark.parametrize('args,expect', [(['-y', 'arms: [anchor, wings]'], "arms=['anchor', 'wings']"),
                                         (['-y', 'horizons: [8, 80]'], 'horizons=[8, 80]'),
                                         (['-p', 'budget_s', '0'], 'budget_s=0'),
                                         (['-p', 'init_from', '/no/such/model'], "init_from='/no/such/model'"),
                                         (['-y', 'best: [anchor, chunk4, wings]'], "best=['anchor', 'chunk4', 'wings']"),
                                         (['-p', 'long_budget_s', '-5'], 'long_budget_s=-5'),
                                         (['-p', 'long_budget_s', '600'], 'long_budget_s=600')])   # a long run of no combination (best empty)
def test_wm_horizon_bad_parameters(args, expect):
    "A bad parameter, through the stage's first call (`from_mapping(Params, ..., 'papermill')`) in-process."
    from playworld.studies.wm_horizon import Params
    refused(Params, args, expect)
