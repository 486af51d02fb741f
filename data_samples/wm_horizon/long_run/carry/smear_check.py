"""Does the model paint block colour where there is no block? On the study's 48 held-out attempts (seed 4500001), imagined
from their first 4 frames under the real actions (noise seed 0), count per camera the pixels of any block colour
(`colour_masks` red | green | blue) in the imagined and in the real frame at h = 16, 32 and the last frame. Reports the
imagined block area over the real one (1 = as much block colour as there is; > 1 = smeared colour) and the fraction of
imagined block pixels with no block pixel of the real frame within 2 px (false block pixels), means over attempts.
Usage: MUJOCO_GL=egl python smear_check.py MODEL [MODEL ...]; prints one line per model and camera (smear.txt, 2026-12-07)."""
import sys, numpy as np
from scipy.ndimage import binary_dilation
from playworld.eval.judge import fresh_attempts, imagined_attempts
from playworld.envs.tabletop import colour_masks
from playworld.wm.model import load_world_model
eps = fresh_attempts(48, 4500001, size=64, steps=60, cameras=('top', 'front'))
def blocks(fr): m = colour_masks(fr); return m['red'] | m['green'] | m['blue']
for d in sys.argv[1:]:
    wm = load_world_model(d); n = wm.config.n_ctx; im = imagined_attempts(wm, eps, 32, 0)
    for cam in ('observation.images.top', 'observation.images.front'):
        out = []
        for h in (16, 32, None):
            ratio, false = [], []
            for r, q in zip(eps, im):
                t = len(r) - 1 if h is None else n - 1 + h
                rb, qb = blocks(r.cameras[cam][t:t + 1])[0], blocks(q.cameras[cam][t:t + 1])[0]
                ratio.append(qb.sum() / max(rb.sum(), 1)); near = binary_dilation(rb, iterations=2)
                false.append((qb & ~near).sum() / max(qb.sum(), 1))
            out.append(f"{'end' if h is None else f'h={h}'}: area {np.mean(ratio):.2f}, false {np.mean(false):.2f}")
        print(f"{d} {cam.split('.')[-1]:5s} " + ' | '.join(out), flush=True)
