"""Sharded collection on a local Ray instance (optional extra: skipped when Ray is not installed)."""
import pytest
from playworld.data.store import EpisodeStore

def test_collect_sharded_ray(tmp_path):
    ray = pytest.importorskip('ray')
    from playworld.play.run import collect_sharded
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, configure_logging=False)
    try: r = collect_sharded(tmp_path/'m', 4, n_workers=2, backend='ray', mode='demo', max_steps=40, keep_shards=True)
    finally: ray.shutdown()
    st = EpisodeStore(tmp_path/'m')
    assert len(st) == 4 and [s['episodes'] for s in r['shards']] == [2, 2]
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
