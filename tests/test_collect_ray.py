"""Sharded collection on a local Ray instance (optional extra: skipped when Ray is not installed)."""
import json, subprocess, sys
import pytest
from _stages import ROOT, ENV
from playworld.data.store import EpisodeStore

def test_collect_sharded_ray(tmp_path):
    """Ray's head starts its servers with `subprocess.Popen(preexec_fn=...)`: Python code between fork and exec, which can
    deadlock in a process that already runs threads (a test worker after torch has run: seen stuck for an hour, the
    fork's child waiting on a lock another thread held). So the collection runs in a fresh interpreter, as the CLI
    runs it, under a timeout; the shards and the merged store are checked here."""
    pytest.importorskip('ray')
    code = ("import json, sys, ray; from playworld.play.run import collect_sharded; "
            "ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, configure_logging=False)\n"
            "try: r = collect_sharded(sys.argv[1], 4, n_workers=2, backend='ray', mode='demo', max_steps=40, keep_shards=True)\n"
            "finally: ray.shutdown()\n"
            "print(json.dumps([s['episodes'] for s in r['shards']]))")
    p = subprocess.run([sys.executable, '-c', code, str(tmp_path/'m')], cwd=ROOT, env=ENV, capture_output=True, text=True, timeout=600)
    assert p.returncode == 0, p.stderr[-3000:]
    assert json.loads(p.stdout.strip().splitlines()[-1]) == [2, 2]
    st = EpisodeStore(tmp_path/'m')
    assert len(st) == 4
    shards = sorted((tmp_path/'.m.shards').iterdir())
    want = [e for s in shards for e in EpisodeStore(s).load_all()]
    got = st.load_all()
    assert [e.instruction for e in got] == [e.instruction for e in want]
    for a, b in zip(got, want): assert (a.frames == b.frames).all() and (a.actions == b.actions).all()
    assert [m['episode_index'] for m in st.meta] == [0, 1, 2, 3]

def test_ray_missing_message(tmp_path, monkeypatch):
    import builtins, playworld.play.run as run
    real = builtins.__import__
    def fake(name, *a, **k):
        if name == 'ray': raise ImportError('no ray')
        return real(name, *a, **k)
    monkeypatch.setattr(builtins, '__import__', fake)
    with pytest.raises(ImportError, match=r"pip install ray \(or use backend='process'\)"):
        run.collect_sharded(tmp_path/'m', 2, n_workers=2, backend='ray', mode='demo')
