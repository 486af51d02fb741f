"""The cloth study with the smoke parameters, run twice: from its stage notebook (nbs/stages/55_cloth.ipynb) through
papermill, and by `playworld experiment cloth --profile smoke` in-process: the metrics JSON, the store and the figures,
with values checked (counts as asked, rates inside their Wilson intervals, the expert folds), the two metrics identical
but for timings and paths; and bad parameters failing in the first cell after the parameters, naming the parameter."""
import json, time
from pathlib import Path
import pytest

from _stages import ROOT, run_papermill, check_cell_errors, run_cli, without, refused
NB = ROOT/'nbs'/'stages'/'55_cloth.ipynb'
# measured with the wall clock (the speed of the scenes, collection and run times) or naming the run folder: not compared
TIMING = ('wall_s', 'collect_s', 'collect_fps', 'fps.tabletop_fps', 'fps.cloth_fps', 'fps.slowdown', 'fps.load_avg', 'store')

def papermill(out, *args, timeout=240):
    return run_papermill(NB, out, *args, timeout=timeout)

def test_cloth_stage_smoke(tmp_path):
    t0 = time.time()
    r = papermill(tmp_path/'out.ipynb', '-p', 'out_dir', str(tmp_path/'run'), '-p', 'episodes', '2', '-y', 'noise_levels: [0.0, 0.8]',
                  '-p', 'max_steps', '50', '-p', 'bench_seconds', '1.0')
    assert r.returncode == 0, r.stderr[-3000:]
    m = json.loads((tmp_path/'run'/'metrics'/'tabletop.cloth.json').read_text())
    assert {'levels', 'fps', 'n_episodes', 'frames', 'store', 'config', 'per_episode', 'wall_s'} <= set(m)
    assert [l['noise'] for l in m['levels']] == [0.0, 0.8] and m['n_episodes'] == 4
    for l in m['levels']:
        assert l['n'] == 2 and 0 <= l['successes'] <= 2 and l['ci'][0] <= l['success_rate'] <= l['ci'][1]
        assert set(l['events']) == {'grasped_edge', 'grasped_inner', 'missed_grasp', 'released', 'slipped', 'folded'}
        assert l['events']['folded'] == l['successes']            # 'folded' fires once per successful episode
    assert m['levels'][0]['successes'] == 2                       # the expert folds both towels
    f = m['fps']
    assert f['tabletop_fps'] > 0 and f['cloth_fps'] > 0 and abs(f['slowdown'] - f['tabletop_fps'] / f['cloth_fps']) < 0.02
    from playworld.data.store import EpisodeStore
    s = EpisodeStore(tmp_path/'run'/'cloth'/'data')
    assert len(s) == 4
    e = s.load(0)
    assert e.frames.shape[1:] == (64, 64, 3) and e.state.shape[1] == 5 and e.instruction.startswith('fold the towel from')
    assert sum(len(s.load(i)) for i in range(4)) == m['frames']
    for p in ('cloth_strip.png', 'cloth_rates.png', 'cloth_fps.png'): assert (tmp_path/'run'/'figures'/p).stat().st_size > 1000
    # wall time is measured by the benchmarks (bench/), not asserted here: it depends on the CPU (emulated bf16 on AVX2-only CPUs is ~2x slower)
    from playworld.studies.cloth import section, Params
    assert m['config'] == dict(vars(Params.preset('smoke')))
    r = run_cli('experiment', 'cloth', '--profile', 'smoke', '--out', tmp_path/'cli')
    assert r.returncode == 0, r.stderr[-3000:]
    c = json.loads((tmp_path/'cli'/'metrics'/'tabletop.cloth.json').read_text())
    assert without(c, TIMING) == without(m, TIMING)
    assert c['fps']['tabletop_fps'] > 0 and c['store'] == str((tmp_path/'cli'/'cloth'/'data').resolve())
    h = section(c, tmp_path/'cli')
    assert h.startswith('<h2>') and 'data:image/png;base64' in h and 'missing figure' not in h
    assert '<h2>Cloth' in (tmp_path/'cli'/'report.html').read_text()
    assert json.loads((tmp_path/'cli'/'metrics.json').read_text())['tabletop']['cloth']['levels'] == m['levels']

@pytest.mark.parametrize('args,expect', [(['-y', 'noise_levels: [-1]'], 'noise_levels=[-1]'), (['-p', 'bench_seconds', '0'], 'bench_seconds=0')])
def test_cloth_bad_parameters_named(args, expect):
    "Through the stage's first call (`from_mapping(Params, ..., 'papermill')`) in-process; the papermill path is checked once below."
    from playworld.studies.cloth import Params
    refused(Params, args, ['ValueError', expect])

@pytest.mark.parametrize('args,expect', [(['-p', 'episodes', '0'], 'episodes=0')])
def test_cloth_stage_bad_parameters(args, expect, tmp_path):
    r = papermill(tmp_path/'out.ipynb', '-p', 'out_dir', str(tmp_path/'run'), *args, timeout=120)
    assert r.returncode != 0 and 'ValueError' in r.stderr and expect in r.stderr, r.stderr[-2000:]
    errs, first = check_cell_errors(tmp_path/'out.ipynb')
    assert errs == [first]
    assert not (tmp_path/'run'/'metrics').exists()

def test_cloth_experiment_bad_setting(tmp_path):
    "`--set` goes through the study's Params: a bad value fails before any work, naming the setting."
    r = run_cli('experiment', 'cloth', '--profile', 'smoke', '--set', 'cloth.episodes=0', '--out', tmp_path/'cli', timeout=120)
    assert r.returncode != 0 and 'episodes=0' in r.stderr, r.stderr[-2000:]
    assert not (tmp_path/'cli'/'metrics').exists()
