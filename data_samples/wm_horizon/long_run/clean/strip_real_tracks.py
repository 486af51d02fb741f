"""Strips of real successes imagined by a world model with block tracks *given the real block positions*: what the
renderer paints where the blocks really went (`imagined_attempts(tracks='real')`, as `playworld evaluate wm-horizon
--real-tracks` measures it). The attempts are the study's held-out ones (`fresh_attempts`, two cameras, 60 steps); the
first two real lift or pick-and-place successes among the first N are drawn, real above imagined (`survival_strip`).

    python strip_real_tracks.py MODEL_DIR OUT.png [--seed 4500001] [--episodes 12]

writes OUT_0.png and OUT_1.png."""
import argparse
from playworld.eval.judge import fresh_attempts, imagined_attempts
from playworld.eval.horizon import survival_strip
from playworld.envs.tabletop import parse_instruction
from playworld.wm.model import load_world_model

ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
ap.add_argument('model'); ap.add_argument('out')
ap.add_argument('--seed', type=int, default=4500001); ap.add_argument('--episodes', type=int, default=12)
a = ap.parse_args()
wm = load_world_model(a.model).eval()
eps = fresh_attempts(a.episodes, a.seed, size=64, steps=60, cameras=('top', 'front'))
idx = [k for k, e in enumerate(eps) if e.success and parse_instruction(e.instruction).family in ('lift', 'pick_place')][:2]
if not idx: raise SystemExit(f"no lift or pick-and-place success among the first {a.episodes} attempts of seed {a.seed}: raise --episodes")
im = imagined_attempts(wm, [eps[i] for i in idx], seed=a.seed, tracks='real')
for j, i in enumerate(idx):
    p = a.out.replace('.png', f'_{j}.png'); survival_strip(eps[i], im[j], p, every=6); print(f"attempt {i}: {eps[i].instruction} -> {p}")
