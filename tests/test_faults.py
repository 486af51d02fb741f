"""Fault injection: SIGKILL during dataset export and during training, then resume. (Collection: test_collect_crash.py;
a papermill run: test_pipeline.py.) Nothing committed is lost, no half-written file is read as valid."""
import json, os, signal, subprocess, sys, time, warnings
from pathlib import Path
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
HELDOUT = ROOT/'data_samples'/'tabletop_heldout'
ENV = dict(os.environ, PYTHONPATH=os.pathsep.join([str(ROOT)] + [x for x in [os.environ.get('PYTHONPATH')] if x]))

EXPORT = r'''
import sys, numpy as np
from playworld.core import Episode
from playworld.data.store import write_episodes
out, n = sys.argv[1], int(sys.argv[2])
for k in range(n):              # one batch of 2 episodes per write; frame values encode (batch, episode)
    eps = [Episode(np.full((12, 32, 32, 3), 20 * (k % 6) + 100 * j, np.uint8), np.full((12, 4), k, np.float32), instruction=f'batch {k}')
           for j in range(2)]
    write_episodes(out, eps, append=k > 0)
    print(k, flush=True)
'''


def _kill_after(cmd, ready, timeout=120):
    "Start `cmd` in its own session, SIGKILL it (and its children) once `ready()` is true."
    p = subprocess.Popen(cmd, env=ENV, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, start_new_session=True, text=True)
    t0 = time.time()
    while not ready() and p.poll() is None and time.time() - t0 < timeout: time.sleep(0.05)
    os.killpg(p.pid, signal.SIGKILL); p.wait()
    return p


def test_kill9_during_export(tmp_path):
    from playworld.data.store import EpisodeStore, INFO_PATH
    out = tmp_path/'store'
    committed = lambda: json.loads((out/INFO_PATH).read_text())['total_episodes'] if (out/INFO_PATH).exists() else 0
    for target in (4, 9, 15):                       # kill at three moments, each mid-stream
        _kill_after([sys.executable, '-c', EXPORT, str(out) + f'_{target}', '40'],
                    lambda: (Path(str(out) + f'_{target}')/INFO_PATH).exists() and
                            json.loads((Path(str(out) + f'_{target}')/INFO_PATH).read_text())['total_episodes'] >= target)
        with warnings.catch_warnings():
            warnings.simplefilter('ignore')           # rows of the batch in flight may be left beyond total_episodes
            st = EpisodeStore(str(out) + f'_{target}')
        assert len(st) >= target and len(st) % 2 == 0, len(st)      # whole batches only
        for i, e in enumerate(st.load_all()):          # every committed episode intact, its own frames
            k, j = divmod(i, 2)
            assert e.instruction == f'batch {k}' and (e.actions == k).all()
            assert abs(float(e.frames.mean()) - (20 * (k % 6) + 100 * j)) < 2.0, (i, e.frames.mean())


def test_kill9_during_training_then_resume(tmp_path):
    out = tmp_path/'train'
    cmd = [sys.executable, '-m', 'playworld.app.cli', 'train', '--data', str(HELDOUT), '--out', str(out),
           '--set', 'steps=40', '--set', 'batch_size=2', '--set', 'n_ctx=2', '--set', 'block_out_channels=[16,32]',
           '--set', 'checkpoint_every=10', '--set', 'val_frac=0', '--set', 'bf16=false']
    ck = out/'checkpoint'/'trainer.json'
    saved = lambda: json.loads(ck.read_text())['step'] if ck.exists() else 0
    _kill_after(cmd, lambda: saved() >= 20, timeout=300)
    at = saved()
    assert 20 <= at < 40 and not (out/'model').exists(), at    # killed mid-run: no final model yet
    r = subprocess.run(cmd + ['--resume'], env=ENV, capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr[-2000:]
    assert f'resumed from {out/"checkpoint"} at step {at}' in r.stdout + r.stderr, (r.stdout[-1000:], r.stderr[-1000:])
    h = json.loads((out/'train_history.json').read_text())
    assert h['steps'] == 40 and [s for s, *_ in h['history']] == sorted({s for s, *_ in h['history']})
    assert (out/'model'/'diffusion_pytorch_model.safetensors').exists()
