"""Which block does the world model carry? On the held-out attempts of the study (48, seed 4500001) that really succeed and
whose task block really moves (> 6 px between the first imagined frame and the last), read the last imagined frame of each
camera: the block colour whose imagined mask (>= 10 px) has its centroid nearest the real task block's final centroid,
within 6 px. 'right': the task block is there; 'swapped': another block is there and the task block is not; 'none': no
block is there. Another block that lies within 6 px of that spot in the real last frame too is not counted. Usage: python identity_check.py MODEL [MODEL ...] > identity.json (MUJOCO_GL=egl)."""
import sys, json
import numpy as np
from playworld.eval.judge import fresh_attempts, imagined_attempts
from playworld.eval.horizon import block_pixels
from playworld.envs.tabletop import parse_instruction, BLOCKS
from playworld.wm.model import load_world_model

eps = fresh_attempts(48, 4500001, size=64, steps=60, cameras=('top', 'front'))
out = {}
for mdir in sys.argv[1:]:
    wm = load_world_model(mdir); n = wm.config.n_ctx
    im = imagined_attempts(wm, eps, 32, 0)
    counts = {}
    for r, q in zip(eps, im):
        if not r.success: continue
        obj = parse_instruction(r.instruction).obj
        for cam in r.camera_keys:
            rn, ry = block_pixels(r.cameras[cam][n:], obj)
            if rn[0] < 10 or rn[-1] < 10 or np.linalg.norm(ry[-1] - ry[0]) <= 6: continue   # task block not seen, or it did not move
            best, d = None, 6.0
            for b in BLOCKS:
                qn, qy = block_pixels(q.cameras[cam][-1:], b)
                if b != obj:   # another block that really lies there too (a stack, a crowded plate) says nothing about a swap
                    bn, by = block_pixels(r.cameras[cam][-1:], b)
                    if bn[0] >= 10 and np.linalg.norm(by[0] - ry[-1]) <= 6: continue
                if qn[0] >= 10 and (dd := float(np.linalg.norm(qy[0] - ry[-1]))) <= d: best, d = b, dd
            k = 'right' if best == obj else 'none' if best is None else 'swapped'
            c = counts.setdefault(cam.split('.')[-1], dict(right=0, swapped=0, none=0)); c[k] += 1
    out[mdir] = counts; print(mdir, counts, file=sys.stderr)
print(json.dumps(out, indent=1))
