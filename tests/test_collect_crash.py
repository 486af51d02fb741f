"""kill -9 a running `playworld collect` at random moments: the store stays readable, every committed
episode decodes, and `--resume` ends with exactly N intact episodes."""
import json, os, signal, subprocess, sys, time, warnings
from pathlib import Path
import numpy as np
from playworld.data.store import EpisodeStore, INFO_PATH
from playworld.data.events import parse_event

N = 40
CMD = [sys.executable, '-m', 'playworld.app.cli', 'collect', '--env', 'tabletop', '--mode', 'play',
       '--episodes', str(N), '--seed', '3', '--max-steps', '30', '--size', '32', '--quiet']

def committed(out:Path)->int:
    try: return json.loads((out/INFO_PATH).read_text())['total_episodes']
    except (FileNotFoundError, json.JSONDecodeError): return 0

def check_intact(out:Path)->list:
    with warnings.catch_warnings():
        warnings.simplefilter('ignore')          # leftover rows of the episode in flight are expected here
        st = EpisodeStore(out)
    eps = st.load_all()
    for i, e in enumerate(eps):
        assert len(e.frames) == len(e.actions) == len(e.state) == st.meta[i]['length'], i
        assert e.source == 'play' and e.events and parse_event(e.events[-1]).name in ('success', 'timeout'), (i, e.events)
    return eps

def test_kill9_then_resume(tmp_path):
    out, env = tmp_path/'store', dict(os.environ, PYTHONPATH=str(Path(__file__).parents[1]))
    rng, counts = np.random.default_rng(0), []
    for k in range(3):                           # three kills, each after at least one more commit
        p = subprocess.Popen(CMD + ['--out', str(out)] + (['--resume'] if k else []), env=env,
                             stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        before, t0 = committed(out), time.time()
        target = before + int(rng.integers(1, 6))  # let it commit 1-5 more episodes first
        while committed(out) < target and time.time() - t0 < 60 and p.poll() is None: time.sleep(0.02)
        time.sleep(rng.uniform(0, 0.5))          # a random moment: mid-episode or mid-write
        os.kill(p.pid, signal.SIGKILL); p.wait()
        n = committed(out); counts.append(n)
        assert before < n < N, (before, n, p.stderr.read().decode()[-2000:])
        assert len(check_intact(out)) == n       # readable, every committed episode decodes
    r = subprocess.run(CMD + ['--out', str(out), '--resume', '--json'], env=env, capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr[-2000:]
    print(r.stderr.strip().splitlines()[:1])     # e.g. 'removed 3 files of an interrupted write'
    assert json.loads(r.stdout.strip().splitlines()[-1])['episodes'] == N
    eps = check_intact(out)
    assert len(eps) == N and EpisodeStore(out).info['total_frames'] == sum(map(len, eps))
    assert not [q for q in out.rglob('*') if q.name.startswith('.') and '.tmp' in q.name]   # no temp files left
    print('committed at the kills:', counts)
