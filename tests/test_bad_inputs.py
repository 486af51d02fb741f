"""Malformed inputs across the public entry points: each must fail with a clear error that names the bad value and what
was expected, and leave what is already saved intact.

`python tests/test_bad_inputs.py` prints the table of inputs and the exact messages (the closing notes quote it)."""
import json, shutil, subprocess, sys
from pathlib import Path
import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[1]
HELDOUT = ROOT/'data_samples'/'tabletop_heldout'
WM = ROOT/'data_samples'/'tabletop_wm'


def _ep(T=8, H=64, A=4, **kw):
    from playworld.core import Episode
    rng = np.random.default_rng(0)
    d = dict(frames=rng.integers(0, 255, (T, H, H, 3), dtype=np.uint8), actions=np.zeros((T, A), np.float32),
             state=np.zeros((T, 5), np.float32), instruction='lift the red block', task='lift', source='play',
             policy_id='test', success=False, fps=20.0, events=[])
    d.update(kw)
    return Episode(**d)


@pytest.fixture(scope='session')   # built once per run (make test sends each file whole to one worker)
def store(tmp_path_factory):
    "A small valid store (3 episodes) to corrupt, copied per case."
    from playworld.data.store import write_episodes
    root = tmp_path_factory.mktemp('store')/'s'
    write_episodes(root, [_ep(), _ep(T=10), _ep(T=9)], append=False)
    return root


def _copy(store, tmp_path):
    dst = tmp_path/'s'; shutil.copytree(store, dst); return dst


def _files(root, pattern): return sorted(Path(root).glob(pattern))


# Each case: (id, entry point, what is wrong, fn(store, tmp_path) raising, exception type, substrings of the message)
def c_store_missing(s, t):
    from playworld.data.store import EpisodeStore; EpisodeStore(t/'nowhere')
def c_info_corrupt(s, t):
    from playworld.data.store import EpisodeStore
    d = _copy(s, t); (d/'meta/info.json').write_text('{"codebase_version": "v3.0", "fps": 2'); EpisodeStore(d)
def c_info_version(s, t):
    from playworld.data.store import EpisodeStore
    d = _copy(s, t); i = json.loads((d/'meta/info.json').read_text()); i['codebase_version'] = 'v9.9'
    (d/'meta/info.json').write_text(json.dumps(i)); EpisodeStore(d)
def c_info_episodes(s, t):
    from playworld.data.store import EpisodeStore
    d = _copy(s, t); i = json.loads((d/'meta/info.json').read_text()); i['total_episodes'] = 5
    (d/'meta/info.json').write_text(json.dumps(i)); EpisodeStore(d)
def c_info_frames(s, t):
    from playworld.data.store import EpisodeStore
    d = _copy(s, t); i = json.loads((d/'meta/info.json').read_text()); i['total_frames'] += 3
    (d/'meta/info.json').write_text(json.dumps(i)); EpisodeStore(d)
def c_parquet_truncated(s, t):
    from playworld.data.store import EpisodeStore
    d = _copy(s, t); f = _files(d, 'data/chunk-*/file-*.parquet')[0]; f.write_bytes(f.read_bytes()[:200])
    EpisodeStore(d).load(0)
def c_episodes_parquet_truncated(s, t):
    from playworld.data.store import EpisodeStore
    d = _copy(s, t); f = _files(d, 'meta/episodes/chunk-*/file-*.parquet')[0]; f.write_bytes(f.read_bytes()[:100])
    EpisodeStore(d)
def c_mp4_missing(s, t):
    from playworld.data.store import EpisodeStore
    d = _copy(s, t); _files(d, 'videos/*/chunk-*/file-*.mp4')[0].unlink(); EpisodeStore(d).load(1)
def c_mp4_truncated(s, t):
    from playworld.data.store import EpisodeStore
    d = _copy(s, t); f = _files(d, 'videos/*/chunk-*/file-*.mp4')[0]; f.write_bytes(f.read_bytes()[:300])
    EpisodeStore(d).load(1)
def c_mp4_short(s, t):
    from playworld.data.store import EpisodeStore, encode_video
    d = _copy(s, t); f = _files(d, 'videos/*/chunk-*/file-*.mp4')[0]
    encode_video(np.zeros((12, 64, 64, 3), np.uint8), f, fps=20.0); EpisodeStore(d).load(2)
def c_write_empty(s, t):
    from playworld.data.store import write_episodes; write_episodes(t/'x', [])
def c_write_not_episode(s, t):
    from playworld.data.store import write_episodes; write_episodes(t/'x', [{'frames': None}])
def c_write_mixed_shapes(s, t):
    from playworld.data.store import write_episodes; write_episodes(t/'x', [_ep(), _ep(H=32)])
def c_write_append_mismatch(s, t):
    from playworld.data.store import write_episodes; d = _copy(s, t); write_episodes(d, [_ep(A=7)])
def c_write_append_fps(s, t):
    from playworld.data.store import write_episodes; d = _copy(s, t); write_episodes(d, [_ep(fps=5.0)])
def c_episode_nan_action(s, t):
    _ep(actions=np.full((8, 4), np.nan, np.float32))
def c_episode_float_frames(s, t):
    _ep(frames=np.zeros((8, 64, 64, 3), np.float32))
def c_episode_length_mismatch(s, t):
    _ep(actions=np.zeros((5, 4), np.float32))
def c_episode_source(s, t):
    _ep(source='youtube')
def c_npz_pickle(s, t):
    from playworld.data.importers import read_actions
    p = t/'a.npz'; np.savez(p, np.array([{'a': 1}], dtype=object)); read_actions(p, n_rows=1)
def c_import_no_pairs(s, t):
    from playworld.data.importers import import_mp4_npz
    (t/'src').mkdir(); import_mp4_npz(t/'src', t/'out')
def c_windows_short(s, t):
    from playworld.data.windows import WindowDataset; WindowDataset([_ep(T=3)], n_ctx=4, horizon=1)
def c_windows_empty(s, t):
    from playworld.data.windows import WindowDataset; WindowDataset([], n_ctx=4, horizon=1)
def c_env_action_shape(s, t):
    from playworld.envs.tabletop import TabletopEnv
    e = TabletopEnv(seed=0); e.reset(seed=0); e.step(np.zeros(3, np.float32))
def c_env_action_nan(s, t):
    from playworld.envs.tabletop import TabletopEnv
    e = TabletopEnv(seed=0); e.reset(seed=0); e.step(np.array([0, np.inf, 0, 0], np.float32))
def c_env_unknown_instruction(s, t):
    from playworld.envs.tabletop import TabletopEnv
    TabletopEnv(seed=0).reset(seed=0, options={'instruction': 'juggle the purple block'})
def c_env_unknown_family(s, t):
    from playworld.envs.tabletop import TabletopEnv; TabletopEnv(task='fold_towel', seed=0).reset(seed=0)
def c_env_size(s, t):
    from playworld.envs.tabletop import TabletopEnv; TabletopEnv(size=7)
def c_policy_unknown(s, t):
    from playworld.envs.policies import resolve_spec, GRADED; resolve_spec('gpt-robot-9', GRADED)
def c_wm_missing(s, t):
    from playworld.wm.model import load_world_model; load_world_model(t/'no_model')
def c_wm_truncated(s, t):
    from playworld.wm.model import load_world_model
    d = t/'m'; shutil.copytree(WM, d); f = next(d.glob('*.safetensors')); f.write_bytes(f.read_bytes()[:1000])
    load_world_model(d)
def c_wm_other_config(s, t):
    from playworld.wm.model import load_world_model; load_world_model(WM, expect={'action_dim': 7, 'size': 64})
def c_wm_other_size(s, t):
    from playworld.wm.model import load_world_model; load_world_model(WM, expect={'size': 128})
def c_wmenv_context(s, t):
    from playworld.wm.model import load_world_model; from playworld.wm.env import WorldModelEnv
    WorldModelEnv(load_world_model(WM)).reset(options={'context': np.zeros((4, 32, 32, 3), np.uint8)})
def c_wmenv_no_reset(s, t):
    from playworld.wm.model import load_world_model; from playworld.wm.env import WorldModelEnv
    WorldModelEnv(load_world_model(WM)).step(np.zeros(4, np.float32))
def c_wmenv_action_dim(s, t):
    from playworld.wm.model import load_world_model; from playworld.wm.env import WorldModelEnv
    e = WorldModelEnv(load_world_model(WM)); e.reset(options={'context': np.zeros((4, 64, 64, 3), np.uint8)})
    e.step(np.zeros(7, np.float32))
def c_wmenv_action_nan(s, t):
    from playworld.wm.model import load_world_model; from playworld.wm.env import WorldModelEnv
    e = WorldModelEnv(load_world_model(WM)); e.reset(options={'context': np.zeros((4, 64, 64, 3), np.uint8)})
    e.step(np.array([np.nan, 0, 0, 0], np.float32))
def c_train_steps(s, t):
    from playworld.wm.train import TrainConfig; TrainConfig(steps=0)
def c_train_lr(s, t):
    from playworld.wm.train import TrainConfig; TrainConfig(lr=-1e-3)
def c_train_unknown_key(s, t):
    from playworld.wm.train import split_config; split_config({'stpes': 10})
def c_train_no_store(s, t):
    from playworld.wm.train import train_from_store; train_from_store(t/'none', t/'out')
def c_collect_readonly(s, t):
    from playworld.play.run import collect_to_store; collect_to_store('/proc/playworld-store', 'demo', 2)
def c_train_readonly(s, t):
    from playworld.wm.train import train_from_store; train_from_store(s, '/proc/playworld-model')
def c_cli_profile(s, t):
    r = subprocess.run([sys.executable, '-m', 'playworld.app.cli', 'run', '--profile', 'gigantic', '--out', str(t/'r')],
                       capture_output=True, text=True)
    raise SystemExit(f"exit {r.returncode}: {r.stderr.strip().splitlines()[-1]}")
def c_cli_set(s, t):
    r = subprocess.run([sys.executable, '-m', 'playworld.app.cli', 'train', '--data', str(s), '--out', str(t/'o'),
                        '--set', 'steps'], capture_output=True, text=True)
    raise SystemExit(f"exit {r.returncode}: {r.stderr.strip().splitlines()[-1]}")
def c_cli_out_folder(s, t):
    r = subprocess.run([sys.executable, '-m', 'playworld.app.cli', 'evaluate', 'real', '--policy', str(ROOT/'data_samples'/'rl'/'policies'/'lift'/'base'),
                        '--family', 'lift', '--episodes', '1', '--out', str(t)], capture_output=True, text=True)
    raise SystemExit(f"exit {r.returncode}: {r.stderr.strip().splitlines()[-1]}")

def c_cli_wm_horizon_model(s, t):
    r = subprocess.run([sys.executable, '-m', 'playworld.app.cli', 'evaluate', 'wm-horizon', '--model', str(t/'no_model'), '--episodes', '2'],
                       capture_output=True, text=True)
    raise SystemExit(f"exit {r.returncode}: {r.stderr.strip().splitlines()[-1]}")

def c_cli_wm_horizon_real_tracks(s, t):
    r = subprocess.run([sys.executable, '-m', 'playworld.app.cli', 'evaluate', 'wm-horizon', '--model', str(ROOT/'data_samples'/'tabletop_wm_2cam'), '--real-tracks', '--episodes', '2'],
                       capture_output=True, text=True)
    raise SystemExit(f"exit {r.returncode}: {r.stderr.strip().splitlines()[-1]}")

CASES = [
    ('store-missing', 'EpisodeStore', 'folder without meta/info.json', c_store_missing, FileNotFoundError, ['no episode store', 'info.json']),
    ('info-corrupt', 'EpisodeStore', 'info.json cut mid-way', c_info_corrupt, ValueError, ['corrupt', 'info.json']),
    ('info-version', 'EpisodeStore', "codebase_version 'v9.9'", c_info_version, ValueError, ["'v9.9'", 'v3.0']),
    ('info-episodes', 'EpisodeStore', 'info.json total_episodes 5, files hold 3', c_info_episodes, ValueError, ['claims 5 episodes', 'holds 3']),
    ('info-frames', 'EpisodeStore', 'info.json total_frames 3 more than the rows', c_info_frames, ValueError, ['total_frames=30', 'sums to 27']),
    ('data-parquet-truncated', 'EpisodeStore.load', 'data parquet cut to 200 bytes', c_parquet_truncated, ValueError, ['file-000.parquet']),
    ('episodes-parquet-truncated', 'EpisodeStore', 'episode table parquet cut to 100 bytes', c_episodes_parquet_truncated, ValueError, ['file-000.parquet']),
    ('mp4-missing', 'EpisodeStore.load', 'video file deleted', c_mp4_missing, FileNotFoundError, ['video file not found', '.mp4']),
    ('mp4-truncated', 'EpisodeStore.load', 'video file cut to 300 bytes', c_mp4_truncated, ValueError, ['.mp4']),
    ('mp4-short', 'EpisodeStore.load', 'video of 12 frames where the table says 27', c_mp4_short, ValueError, ['episode 2, observation.images.top', 'holds 0 frames in the span [0.9000, 1.3500) s of 9 frames', 'shorter than the data']),
    ('write-empty', 'write_episodes', 'an empty episode list', c_write_empty, ValueError, ['episodes is empty']),
    ('write-not-episode', 'write_episodes', 'a dict instead of an Episode', c_write_not_episode, TypeError, ['episodes[0]', 'Episode', 'dict']),
    ('write-mixed-shapes', 'write_episodes', '64 px and 32 px episodes together', c_write_mixed_shapes, ValueError, ['episodes[1]', "{'observation.images.top': (32, 32)}", "{'observation.images.top': (64, 64)}"]),
    ('write-append-action-dim', 'write_episodes(append)', 'action dim 7 into a store of action dim 4', c_write_append_mismatch, ValueError, ['7', 'the store holds', '4']),
    ('write-append-fps', 'write_episodes(append)', '5 Hz episodes into a 20 Hz store', c_write_append_fps, ValueError, ['fps 5.0', "store's fps 20"]),
    ('episode-nan-action', 'Episode', 'NaN actions', c_episode_nan_action, ValueError, ['NaN', 'actions']),
    ('episode-float-frames', 'Episode', 'float32 frames', c_episode_float_frames, ValueError, ['float32', 'uint8']),
    ('episode-length', 'Episode', '8 frames, 5 action rows', c_episode_length_mismatch, ValueError, ['5', '8']),
    ('episode-source', 'Episode', "source 'youtube'", c_episode_source, ValueError, ["'youtube'", 'play']),
    ('npz-pickle', 'read_actions', 'an object (pickled) array in the .npz', c_npz_pickle, ValueError, ['a.npz', 'pickle']),
    ('import-no-pairs', 'import_mp4_npz', 'a folder with no <id>.mp4 + <id>.npz pairs', c_import_no_pairs, FileNotFoundError, ['src', '.mp4']),
    ('windows-short', 'WindowDataset', 'a 3-frame episode with 4 context frames', c_windows_short, ValueError, ['n_ctx + horizon = 5', 'longest 3']),
    ('windows-empty', 'WindowDataset', 'no episodes', c_windows_empty, ValueError, ['episodes is empty']),
    ('env-action-shape', 'TabletopEnv.step', 'action of shape (3,)', c_env_action_shape, ValueError, ['(3,)', '(4,)']),
    ('env-action-inf', 'TabletopEnv.step', 'action with inf', c_env_action_nan, ValueError, ['inf']),
    ('env-instruction', 'TabletopEnv.reset', "instruction 'juggle the purple block'", c_env_unknown_instruction, ValueError, ['juggle the purple block']),
    ('env-family', 'TabletopEnv', "task family 'fold_towel'", c_env_unknown_family, ValueError, ['unknown task family', 'fold_towel', 'pick_place']),
    ('env-size', 'TabletopEnv', 'size 7 px', c_env_size, ValueError, ['7']),
    ('policy-unknown', 'resolve_spec', "policy id 'gpt-robot-9'", c_policy_unknown, ValueError, ['gpt-robot-9']),
    ('wm-missing', 'load_world_model', 'a folder that does not exist', c_wm_missing, FileNotFoundError, ['no_model']),
    ('wm-truncated', 'load_world_model', 'safetensors cut to 1000 bytes', c_wm_truncated, ValueError, ['.safetensors']),
    ('wm-action-dim', 'load_world_model(expect)', 'a 4-d action checkpoint where 7-d is needed', c_wm_other_config, ValueError, ['action_dim', '7', '4']),
    ('wm-size', 'load_world_model(expect)', 'a 64 px checkpoint where 128 px is needed', c_wm_other_size, ValueError, ['size', '128', '64']),
    ('wmenv-context', 'WorldModelEnv.reset', 'context frames 32x32', c_wmenv_context, ValueError, ['(4, 32, 32, 3)', '64, 64, 3']),
    ('wmenv-no-reset', 'WorldModelEnv.step', 'step before reset', c_wmenv_no_reset, RuntimeError, ['reset']),
    ('wmenv-action-dim', 'WorldModelEnv.step', 'action of shape (7,)', c_wmenv_action_dim, ValueError, ['(7,)', '(4,)']),
    ('wmenv-action-nan', 'WorldModelEnv.step', 'action with NaN', c_wmenv_action_nan, ValueError, ['NaN']),
    ('train-steps', 'TrainConfig', 'steps=0', c_train_steps, ValueError, ['steps must be >= 1, got 0']),
    ('train-lr', 'TrainConfig', 'lr=-0.001', c_train_lr, ValueError, ['lr must be > 0, got -0.001']),
    ('train-key', 'train config', "unknown key 'stpes'", c_train_unknown_key, ValueError, ["'stpes'", 'steps']),
    ('train-no-store', 'train_from_store', 'a data folder that is not a store', c_train_no_store, FileNotFoundError, ['no episode store']),
    ('collect-readonly', 'collect_to_store', 'an output folder on a read-only file system (/proc)', c_collect_readonly, OSError, ['cannot create output folder /proc/playworld-store']),
    ('train-readonly', 'train_from_store', 'an output folder on a read-only file system (/proc)', c_train_readonly, OSError, ['cannot create output folder /proc/playworld-model']),
    ('cli-profile', 'playworld run', "--profile gigantic", c_cli_profile, SystemExit, ['exit 2', 'gigantic', 'smoke']),
    ('cli-set', 'playworld train', "--set steps (no '=')", c_cli_set, SystemExit, ['exit 2', 'steps']),
    ('cli-out-folder', 'playworld evaluate real --out', 'an existing folder as the JSON file, refused before any episode runs', c_cli_out_folder, SystemExit, ['exit 2', 'argument --out', 'is a folder', 'result.json']),
    ('cli-wm-horizon-model', 'playworld evaluate wm-horizon', 'a --model folder that does not exist, refused before any attempt is collected', c_cli_wm_horizon_model, SystemExit, ['exit 2', '--model', 'no_model', 'no such folder']),
    ('cli-wm-horizon-real-tracks', 'playworld evaluate wm-horizon --real-tracks', 'a model without block tracks, refused before any attempt is collected', c_cli_wm_horizon_real_tracks, SystemExit, ['--real-tracks', 'tabletop_wm_2cam', 'no block tracks']),
]


@pytest.mark.parametrize('case', CASES, ids=[c[0] for c in CASES])
def test_bad_input(case, store, tmp_path):
    cid, entry, what, fn, exc, parts = case
    before = {p: p.read_bytes() for p in store.rglob('*') if p.is_file()}
    with pytest.raises(exc) as e: fn(store, tmp_path)
    msg = str(e.value)
    for p in parts: assert p in msg, f"{cid}: expected {p!r} in the message {msg!r}"
    after = {p: p.read_bytes() for p in store.rglob('*') if p.is_file()}
    assert after == before, f"{cid}: the saved store changed"


def table(tmp_root:Path)->str:
    "Run every case and return the markdown table of inputs and the exact messages."
    import tempfile
    rows = ['| # | entry point | bad input | error | message |', '|---|---|---|---|---|']
    s = Path(tempfile.mkdtemp(dir=tmp_root))/'s'
    from playworld.data.store import write_episodes
    write_episodes(s, [_ep(), _ep(T=10), _ep(T=9)], append=False)
    for k, (cid, entry, what, fn, exc, parts) in enumerate(CASES, 1):
        t = Path(tempfile.mkdtemp(dir=tmp_root))
        try: fn(s, t); got = 'NO ERROR'
        except BaseException as e: got = f"{type(e).__name__} | {str(e).splitlines()[0][:300]}"
        rows.append(f"| {k} | `{entry}` | {what} | {got.replace(chr(10), ' ')} |")
    return '\n'.join(rows)


if __name__ == '__main__':
    import tempfile, warnings
    warnings.simplefilter('ignore')
    print(table(Path(tempfile.mkdtemp())))
