"""The simgap study with the smoke parameters, on the shipped data_samples only, run twice: from its stage notebook
through papermill, and by `playworld experiment simgap --profile smoke --set simgap.n_sim=3` in-process, the two metrics
identical but for timings; the metrics JSON carries every arm measured in the real tabletop and the mismatched simulator with consistent Wilson
intervals and the requested counts, and both RL arms spent the same rollouts; bad parameters fail naming themselves."""
import json, time
from pathlib import Path
import pytest

from _stages import ROOT, run_papermill, check_cell_errors, run_cli, without, refused
NB = ROOT/'nbs'/'stages'/'75_simgap.ipynb'
# measured with the wall clock: not compared between the two runs
TIMING = ('gap.seconds', 'base.compute_s', 'sim.compute_s', 'wm.compute_s')
SMOKE = dict(rl_updates=1, groups=1, group_size=2, rl_steps=8, n_starts=1, n_real=2, n_sim=3, n_imagined=0, n_expert=1, n_frames=2, max_steps=8)

def papermill(out_nb, *args, timeout=300):
    return run_papermill(NB, out_nb, *args, timeout=timeout, log_output=False)

def test_simgap_stage_smoke(tmp_path):
    t0 = time.time()
    args = [x for k, v in SMOKE.items() for x in ('-p', k, str(v))]
    r = papermill(tmp_path/'out.ipynb', '-p', 'out_dir', str(tmp_path/'run'), *args)
    assert r.returncode == 0, r.stderr[-3000:]
    run = tmp_path/'run'
    m = json.loads((run/'metrics'/'tabletop.simgap.json').read_text())
    assert {'gap', 'config', 'base', 'sim', 'wm'} <= set(m)
    for a in ('base', 'sim', 'wm'):
        x = m[a]
        assert (x['n_real'], x['n_sim']) == (SMOKE['n_real'], SMOKE['n_sim'])
        for k in ('real_success', 'sim_success'):
            lo, hi = x[k + '_ci']
            assert 0 <= lo <= x[k] <= hi <= 1, (a, k, x[k], lo, hi)
            n = x['n_' + k.split('_')[0]]
            assert abs(x[k] * n - round(x[k] * n)) < 1e-9   # successes / episodes
    for a in ('sim', 'wm'):
        assert len(m[a]['train_reward']) == SMOKE['rl_updates'] and m[a]['compute_s'] > 0
        assert m[a]['real_vs_base']['delta'] == pytest.approx(m[a]['real_success'] - m['base']['real_success'])
    g = m['gap']
    assert g['n'] == SMOKE['n_frames'] and 5 < g['psnr'] < 40 and g['expert_real']['n'] == g['expert_sim']['n'] == SMOKE['n_expert']
    assert m['config']['scene']['friction'] == 0.6 and m['config']['grpo']['G'] == SMOKE['group_size']
    raw = json.loads((run/'simgap'/'simgap.json').read_text())
    assert raw['sim']['curve'][0]['rollouts'] == raw['wm']['curve'][0]['rollouts'] == SMOKE['groups'] * SMOKE['group_size']
    assert all((run/'figures'/f).stat().st_size > 0 for f in ('simgap.png', 'simgap_frames.png'))
    from playworld.studies.simgap import simgap_section
    h = simgap_section(m, run)
    assert h.startswith('<h2>') and h.count('base64') == 2
    print(f'simgap smoke stage: {time.time() - t0:.0f} s')
    from playworld.studies.simgap import Params
    assert SMOKE == Params.PRESETS['smoke'] | dict(n_sim=3)
    r = run_cli('experiment', 'simgap', '--profile', 'smoke', '--set', 'simgap.n_sim=3', '--out', tmp_path/'cli')
    assert r.returncode == 0, r.stderr[-3000:]
    c = json.loads((tmp_path/'cli'/'metrics'/'tabletop.simgap.json').read_text())
    assert without(c, TIMING) == without(m, TIMING)
    assert '<h2>' in (tmp_path/'cli'/'report.html').read_text() and (tmp_path/'cli'/'figures'/'simgap_frames.png').exists()

def test_simgap_bad_family_named():
    "A bad family, through the stage's first call (`from_mapping(Params, ..., 'papermill')`) in-process."
    from playworld.studies.simgap import Params
    refused(Params, ['-y', 'families: [fly]'], "families=['fly']")

@pytest.mark.parametrize('args,expect', [(['-p', 'group_size', '1'], 'group_size=1'),
                                         (['-p', 'base_policy', '/no/such/policy'], "base_policy='/no/such/policy'")])
def test_simgap_stage_bad_parameters(tmp_path, args, expect):
    r = papermill(tmp_path/'out.ipynb', '-p', 'out_dir', str(tmp_path/'run'), *args)
    assert r.returncode != 0 and expect in r.stderr, r.stderr[-2000:]
    assert not (tmp_path/'run'/'metrics').exists()
