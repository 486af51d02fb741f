"""From the attempt's start (the study's 48 held-out attempts, seed 4500001; noise seed 4500001): at the frame the first grasp step starts from (s-1), where is the imagined gripper (top view)
against the real one, and which block is nearest to it? Usage: MUJOCO_GL=egl python grip_start.py 48 MODEL [MODEL ...] (its output on 2026-12-07 is grip_start.txt). The top view's dark-pixel
'gripper' mask takes in the arm too, so 'nearest block' is read from a centroid that sits a little behind the fingers."""
import sys, numpy as np
from playworld.eval.judge import fresh_attempts
from playworld.envs.tabletop import colour_masks, parse_instruction
from playworld.data.events import held_frames
from playworld.eval.horizon import wm_horizon_eval
from playworld.wm.model import load_world_model
N = int(sys.argv[1]); eps = fresh_attempts(N, 4500001, size=64, steps=60, cameras=('top', 'front'))
cam = 'observation.images.top'
def cent(fr, key):
    m = colour_masks(fr[None])[key][0]; n = m.sum()
    return (np.array([m.sum(1) @ np.arange(m.shape[0]), m.sum(0) @ np.arange(m.shape[1])]) / n) if n >= 5 else None
sel = [(i, int(held_frames(e).argmax())) for i, e in enumerate(eps) if held_frames(e).any() and held_frames(e).argmax() > 5]
print(f'{len(eps)} attempts, {len(sel)} with a hold after frame 5')
for d in sys.argv[2:]:
    wm = load_world_model(d); im = wm_horizon_eval(wm, eps, None, horizons=(8, 16), seed=4500001, return_imagined=True)['imagined']
    errs, moved, near_ok, near_real_ok = [], [], 0, 0; cnt = 0
    for i, s in sel:
        e, q = eps[i], im[i]; blk = parse_instruction(e.instruction).obj; t = s - 1
        rg, qg = cent(e.cameras[cam][t], 'gripper'), cent(q.cameras[cam][t], 'gripper'); r0 = cent(e.cameras[cam][3], 'gripper')
        if rg is None or qg is None or r0 is None: continue
        cnt += 1; errs.append(np.linalg.norm(qg - rg)); moved.append(np.linalg.norm(rg - r0))
        blocks = {c: cent(e.cameras[cam][3], c) for c in ('red', 'green', 'blue')}
        blocks = {c: p for c, p in blocks.items() if p is not None}
        if blocks:
            near_q = min(blocks, key=lambda c: np.linalg.norm(blocks[c] - qg)); near_r = min(blocks, key=lambda c: np.linalg.norm(blocks[c] - rg))
            near_ok += near_q == near_r; near_real_ok += near_r == blk
    print(f'{d}: n {cnt}; gripper err at grasp frame {np.mean(errs):.1f} px (median {np.median(errs):.1f}), real gripper moved {np.mean(moved):.1f} px since ctx; '
          f'imagined gripper nearest the same block as real {near_ok}/{cnt}; real nearest = task block {near_real_ok}/{cnt}', flush=True)
