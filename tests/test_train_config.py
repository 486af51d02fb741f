"""Every training setting is coerced to the type its config declares, on both ways in: `playworld train --set` and the
train stage's papermill parameters. `bf16=false` and `bf16=False` both turn bf16 off (and the resolved config in the
output folder says so); `bf16=maybe` is refused naming the setting, the value and the expected type
(an unknown key, refused with the valid ones, is tested in-process in test_bad_inputs.py)."""
import json, subprocess
from pathlib import Path
import pytest

from _stages import ROOT, ENV, STAGES, run_papermill, check_cell_errors
DATA = 'data_samples/tabletop_heldout'
TINY = ['--set', 'steps=1', '--set', 'batch_size=2', '--set', 'block_out_channels=[8,16]', '--set', 'n_ctx=2',
        '--set', 'val_frac=0', '--set', 'max_seconds=60', '--set', 'checkpoint_every=1000']

def train(out, *sets):
    "`playworld train` on the shipped held-out episodes: one step of a tiny model."
    return subprocess.run([str(ROOT/'.venv'/'bin'/'playworld'), 'train', '--data', DATA, '--out', str(out), *TINY, *sets],
                          cwd=ROOT, env=ENV, capture_output=True, text=True, timeout=180)

@pytest.mark.parametrize('text', ['false', 'False'])
def test_cli_bf16_off(text, tmp_path):
    r = train(tmp_path/'m', '--set', f'bf16={text}')
    assert r.returncode == 0, r.stderr[-3000:]
    cfg = json.loads((tmp_path/'m'/'config.json').read_text())            # the given settings, resolved to their types
    assert cfg['bf16'] is False and cfg['block_out_channels'] == [8, 16] and cfg['steps'] == 1, cfg
    assert json.loads((tmp_path/'m'/'train_history.json').read_text())['config']['bf16'] is False   # what the loop ran with
    assert json.loads((tmp_path/'m'/'model'/'config.json').read_text())['block_out_channels'] == [8, 16]

def test_cli_bf16_bad_value(tmp_path):
    r = train(tmp_path/'m', '--set', 'bf16=maybe')
    assert r.returncode == 2, (r.returncode, r.stderr[-3000:])
    for s in ('bf16', "'maybe'", 'bool'): assert s in r.stderr, f"{s!r} not in: {r.stderr[-2000:]}"
    assert not (tmp_path/'m'/'checkpoint').exists()

def test_stage_coerces_parameters(tmp_path):
    "Papermill hands `-p bf16 false` and `-p block_out_channels '[8, 16]'` over as text; the stage coerces them."
    r = run_papermill(STAGES/'20_train.ipynb', tmp_path/'out.ipynb', '-p', 'data_dir', DATA, '-p', 'out_dir', str(tmp_path/'run'),
                      '-p', 'steps', '1', '-p', 'batch_size', '2', '-p', 'bf16', 'false', '-p', 'block_out_channels', '[8, 16]', timeout=240)
    assert r.returncode == 0, r.stderr[-3000:]
    m = tmp_path/'run'/'models'/'tabletop'
    cfg = json.loads((m/'config.json').read_text())
    assert cfg['bf16'] is False and cfg['block_out_channels'] == [8, 16], cfg
    assert json.loads((m/'train_history.json').read_text())['config']['bf16'] is False
    assert json.loads((m/'model'/'config.json').read_text())['block_out_channels'] == [8, 16]

def test_stage_bad_value_fails_in_check_cell(tmp_path):
    r = run_papermill(STAGES/'20_train.ipynb', tmp_path/'out.ipynb', '-p', 'data_dir', DATA, '-p', 'out_dir', str(tmp_path/'run'),
                      '-p', 'bf16', 'maybe')
    assert r.returncode != 0
    for s in ('bf16', "'maybe'", 'bool'): assert s in r.stderr, f"{s!r} not in: {r.stderr[-2000:]}"
    errs, first = check_cell_errors(tmp_path/'out.ipynb')
    assert errs == [first], (errs, first)

def _two_camera_store(root):
    "A store of 3 episodes seen by two non-square cameras (16x24), with 7-d actions outside [-1, 1] (a real robot's units)."
    import numpy as np
    from playworld.core import Episode
    from playworld.data.store import write_episodes
    rng = np.random.default_rng(0)
    eps = [Episode(None, rng.normal(0, 5, (12, 7)).astype(np.float32),
                   cameras={f'observation.images.{c}': rng.integers(0, 255, (12, 16, 24, 3), dtype=np.uint8) for c in ('left', 'wrist')})
           for _ in range(3)]
    write_episodes(root, eps)
    return root

@pytest.mark.parametrize('layout', ['tile', 'channels'])
def test_cli_two_cameras(layout, tmp_path):
    "`--cameras a,b` trains one model of both views (a canvas 16 x 48); it carries the action statistics; replay scores each camera."
    store = _two_camera_store(tmp_path/'store')
    r = subprocess.run([str(ROOT/'.venv'/'bin'/'playworld'), 'train', '--data', str(store), '--cameras', 'wrist,left', '--out', str(tmp_path/'m'),
                        *TINY[:8], '--set', 'val_frac=0.34', '--set', f'view_layout={layout}'], cwd=ROOT, env=ENV, capture_output=True, text=True, timeout=180)
    assert r.returncode == 0, r.stderr[-3000:]
    cfg = json.loads((tmp_path/'m'/'model'/'config.json').read_text())
    assert (cfg['size'], cfg['width'], cfg['n_views'], cfg['view_layout']) == (16, 48, 2, layout), cfg
    assert cfg['cameras'] == ['observation.images.wrist', 'observation.images.left'] and len(cfg['action_std']) == 7 and min(cfg['action_std']) > 1, cfg
    r = subprocess.run([str(ROOT/'.venv'/'bin'/'playworld'), 'evaluate', 'replay', '--checkpoint', str(tmp_path/'m'/'model'), '--data', str(store),
                        '--heldout-of', str(tmp_path/'m'), '--horizons', '1', '4', '--json'], cwd=ROOT, env=ENV, capture_output=True, text=True, timeout=180)
    assert r.returncode == 0, r.stderr[-3000:]
    rep = json.loads(r.stdout.strip().splitlines()[-1])
    assert list(rep['per_camera']) == cfg['cameras'] and set(rep['overall']) == {'1', '4'}, rep
    assert len(rep['episodes']) == 1 and rep['per_camera']['observation.images.left']['1']['margin_copy_last']['episodes'] == 1

def test_cli_bad_view_layout(tmp_path):
    r = train(tmp_path/'m', '--set', 'view_layout=grid')
    assert r.returncode == 2 and "view_layout='grid'" in r.stderr and "'channels'" in r.stderr, r.stderr[-2000:]
    assert not (tmp_path/'m'/'checkpoint').exists()

def test_cli_two_cameras_from_one_camera_model(tmp_path):
    "A one-camera model starts a two-camera one (`init_from`): every weight carries over into the 'views' layout; 'channels' is refused by name."
    import torch
    from safetensors.torch import load_file
    store = _two_camera_store(tmp_path/'store')
    tr = lambda out, cams, *sets: subprocess.run([str(ROOT/'.venv'/'bin'/'playworld'), 'train', '--data', str(store), '--cameras', cams, '--out', str(out),
                                                  *TINY, *sets], cwd=ROOT, env=ENV, capture_output=True, text=True, timeout=180)
    r = tr(tmp_path/'one', 'wrist'); assert r.returncode == 0, r.stderr[-3000:]
    r = tr(tmp_path/'two', 'wrist,left', '--set', f'init_from={tmp_path/"one"/"model"}', '--set', 'lr=1e-12')
    assert r.returncode == 0, r.stderr[-3000:]
    cfg = json.loads((tmp_path/'two'/'model'/'config.json').read_text())
    assert (cfg['n_views'], cfg['width'], cfg['view_layout'], cfg['cameras']) == (2, 48, 'views', ['observation.images.wrist', 'observation.images.left']), cfg
    one, two = (load_file(str(tmp_path/d/'model'/'diffusion_pytorch_model.safetensors')) for d in ('one', 'two'))
    assert set(two) - set(one) == {'view_emb.weight'} and float(two['view_emb.weight'].abs().max()) < 1e-6
    assert all(torch.allclose(one[k], two[k], atol=1e-6) for k in one)           # lr 1e-12: the start is the one-camera model
    r = tr(tmp_path/'three', 'wrist,left', '--set', f'init_from={tmp_path/"one"/"model"}', '--set', 'view_layout=channels')
    assert r.returncode != 0 and "'views' or 'tile' only" in r.stderr, r.stderr[-2000:]

def test_fine_tune_changes_recipe_not_architecture(tmp_path):
    "A fine-tune may change the training recipe (context-noise augmentation, σ sampling) and saves it; an architecture key that differs is refused by name."
    store = _two_camera_store(tmp_path/'store')
    tr = lambda out, *sets: subprocess.run([str(ROOT/'.venv'/'bin'/'playworld'), 'train', '--data', str(store), '--cameras', 'wrist', '--out', str(out),
                                            *TINY, *sets], cwd=ROOT, env=ENV, capture_output=True, text=True, timeout=180)
    r = tr(tmp_path/'one'); assert r.returncode == 0, r.stderr[-3000:]
    base = json.loads((tmp_path/'one'/'model'/'config.json').read_text())
    r = tr(tmp_path/'two', '--set', f'init_from={tmp_path/"one"/"model"}', '--set', 'ctx_noise_max=0.5', '--set', 'n_sampling_steps=2')
    assert r.returncode == 0, r.stderr[-3000:]
    cfg = json.loads((tmp_path/'two'/'model'/'config.json').read_text())
    assert (base['ctx_noise_max'], cfg['ctx_noise_max'], cfg['n_sampling_steps']) == (0.1, 0.5, 2), (base, cfg)
    arch = lambda c: {k: v for k, v in c.items() if k not in ('ctx_noise_max', 'n_sampling_steps') and not k.startswith('_')}   # (diffusers' own '_' keys aside)
    assert arch(cfg) == arch(base), (arch(cfg), arch(base))
    r = tr(tmp_path/'three', '--set', f'init_from={tmp_path/"one"/"model"}', '--set', 'n_ctx=3')
    assert r.returncode != 0 and 'n_ctx expected 3, checkpoint has' in r.stderr, r.stderr[-2000:]
