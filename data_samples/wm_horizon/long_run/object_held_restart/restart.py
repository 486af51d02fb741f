"""Resume a long arm of the study (its config.json and checkpoint/; here `object_held`, object_weight 8 and held_weight 3,
and `object_held_sf`) from its last checkpoint for more steps.

    cp -r RUN5/wm_horizon/arms/best_long ARM          # the 1,800 s arm (3,508 steps), checkpointed every 25 steps
    python restart.py ARM TRAIN                       # steps 7016 in all; writes ARM/model, ARM/train_history.json
    python restart.py ARM TRAIN --summary OUT.json    # then the loss by tenths of the run

The arm's cosine schedule is rebuilt for the new total, so the learning rate restarts at the value that schedule has at
the checkpoint's step (about half the peak) and decays to 0 again: a warm restart (Loshchilov & Hutter 2017, SGDR), not
the single cosine of a run planned for 7016 steps from the start."""
import argparse, json
import numpy as np
from playworld.wm.train import train_from_store
from playworld.core import write_json

ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
ap.add_argument('arm', help='copy of the long arm folder (config.json, checkpoint/)'); ap.add_argument('train', help='the training store')
ap.add_argument('--steps', type=int, default=7016, help='optimizer steps in all (default: twice the 1,800 s run)')
ap.add_argument('--summary', default='', help='write the loss by tenths of the run here')
a = ap.parse_args()
cfg = json.load(open(f'{a.arm}/config.json')); cfg['steps'] = a.steps
start = json.load(open(f'{a.arm}/checkpoint/trainer.json'))['step']   # where the restart begins
r = train_from_store(a.train, a.arm, cfg, resume=True, progress=False, cameras='top,front')
h = json.load(open(f'{a.arm}/train_history.json')); s = np.array([x[0] for x in h['history']]); L = np.array([x[1] for x in h['history']])
edges = np.linspace(0, h['steps'], 11).astype(int)
tenths = [round(float(L[(s >= lo) & (s < hi)].mean()), 3) for lo, hi in zip(edges[:-1], edges[1:])]
print(f"{h['steps']} steps, {h['train_seconds']:.0f} s of training in all; loss by tenths: {tenths}")
lr = [x[2] for x in h['history'] if x[0] == start]   # the learning rate the restart began with (the history logs every 10 steps)
if a.summary: write_json(a.summary, dict(steps=h['steps'], train_seconds=round(h['train_seconds'], 1), loss_by_tenths=tenths, restart_at=start, lr_at_restart=lr[0] if lr else None))
