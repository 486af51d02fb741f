"""A model of the blocks' motion, apart from their pixels: can the tabletop's contact dynamics be learned from the play
store in low dimensions, and how far off is it open-loop?

Per step it predicts the hand's proprioceptive state change (`observation.state`: hand x, y, z in m, finger gap in m,
grip command) from the state and the action, and each block's pixel displacement in both views from the state, the
action and the block's own position (labels: `block_tracks` of the real frames, with hindsight). Both are small MLPs
(torch) trained on every step of the training store. Then, from each held-out attempt's last context frame (its real
state and the blocks' last seen positions), it rolls both forward open-loop under the attempt's real actions and reports
the task block's pixel error against the real block, per view, against leaving the block where it was.

With --model, a world model with block tracks then imagines the same attempts given these predicted positions
(`wm_horizon_eval(tracks=...)`, the judge included), as `playworld evaluate wm-horizon --real-tracks` gives it the real ones.

    python block_motion.py TRAIN_STORE OUT_DIR [--episodes 48] [--seed 4500001] [--model WM_DIR]

writes OUT_DIR/block_motion.json and OUT_DIR/block_motion.pt (the two MLPs and their input statistics)."""
import argparse, json, time
from pathlib import Path
import numpy as np, torch, torch.nn as nn
from playworld.data.store import EpisodeStore
from playworld.wm.model import block_tracks
from playworld.envs.tabletop import parse_instruction, BLOCKS

CAMS = ('observation.images.top', 'observation.images.front')
N_CTX = 4

def tracks_of(e, hindsight=True): # (T, V, M, 2) px
    return np.stack([block_tracks(e.cameras[c], hindsight) for c in CAMS], 1)

def samples(eps):
    S, dS, X, dX = [], [], [], []
    for e in eps:
        tr = tracks_of(e); st, ac = e.state.astype(np.float32), e.actions.astype(np.float32)
        S.append(np.c_[st[:-1], ac[:-1]]); dS.append(st[1:] - st[:-1])
        for j in range(tr.shape[2]):
            p = tr[:, :, j].reshape(len(e), -1)                                   # (T, 4) y, x top; y, x front
            ok = ~np.isnan(p).any(1); ok = ok[:-1] & ok[1:]
            X.append(np.c_[st[:-1], ac[:-1], p[:-1] / 64][ok]); dX.append((p[1:] - p[:-1])[ok])
    return [np.concatenate(a).astype(np.float32) for a in (S, dS, X, dX)]

class MLP(nn.Module):
    def __init__(self, x, y, width=256):
        super().__init__()
        self.register_buffer('mx', torch.tensor(x.mean(0))); self.register_buffer('sx', torch.tensor(x.std(0) + 1e-6))
        self.register_buffer('sy', torch.tensor(y.std(0) + 1e-6))
        self.net = nn.Sequential(nn.Linear(x.shape[1], width), nn.SiLU(), nn.Linear(width, width), nn.SiLU(), nn.Linear(width, width), nn.SiLU(), nn.Linear(width, y.shape[1]))
    def forward(self, x): return self.net((x - self.mx) / self.sx) * self.sy

def fit(x, y, steps=4000, bs=1024, seed=0):
    torch.manual_seed(seed); m = MLP(x, y); opt = torch.optim.AdamW(m.parameters(), 1e-3, weight_decay=1e-4)
    sch = torch.optim.lr_scheduler.CosineAnnealingLR(opt, steps); X, Y = torch.from_numpy(x), torch.from_numpy(y)
    for i in range(steps):
        ix = torch.randint(0, len(X), (bs,)); loss = (((m(X[ix]) - Y[ix]) / m.sy) ** 2).mean()
        opt.zero_grad(); loss.backward(); opt.step(); sch.step()
    return m.eval()

@torch.no_grad()
def roll(ms, mb, e, first=N_CTX):
    "Open-loop (T - first, V, M, 2) block positions for frames first … T-1 from frame first-1's real state and last seen tracks."
    st = torch.tensor(e.state[first - 1], dtype=torch.float32); tr = tracks_of(e.slice(0, first), hindsight=False)[-1]   # (V, M, 2)
    p = torch.tensor(tr.transpose(1, 0, 2).reshape(tr.shape[1], -1), dtype=torch.float32)                            # (M, 4)
    known = ~torch.isnan(p).any(1); out = []
    for t in range(first - 1, len(e) - 1):
        a = torch.tensor(e.actions[t], dtype=torch.float32)
        x = torch.cat([st.expand(len(p), -1), a.expand(len(p), -1), torch.nan_to_num(p) / 64], 1)
        p = torch.where(known[:, None], p + mb(x), p); st = st + ms(torch.cat([st, a])[None])[0]
        out.append(p.reshape(len(p), 2, 2).permute(1, 0, 2).numpy().copy())
    return np.stack(out)                                                                                        # (T - first, V, M, 2)

def main():
    ap = argparse.ArgumentParser(); ap.add_argument('train'); ap.add_argument('out'); ap.add_argument('--episodes', type=int, default=48)
    ap.add_argument('--seed', type=int, default=4_500_001); ap.add_argument('--steps', type=int, default=4000); ap.add_argument('--model'); a = ap.parse_args()
    from playworld.eval.judge import fresh_attempts
    t0 = time.time(); eps = EpisodeStore(a.train).load_all(); S, dS, X, dX = samples(eps)
    print(f"{len(S)} state steps, {len(X)} block steps ({(np.abs(dX).max(1) > 0.5).mean():.3f} move > 0.5 px) in {time.time() - t0:.0f} s")
    t0 = time.time(); ms, mb = fit(S, dS, a.steps), fit(X, dX, a.steps); print(f"fitted in {time.time() - t0:.0f} s")
    test = fresh_attempts(a.episodes, a.seed, size=64, steps=60, cameras=('top', 'front'))
    err, still = [], []
    for e in test:
        j = BLOCKS.index(parse_instruction(e.instruction).obj); real = tracks_of(e)[N_CTX:, :, j]                 # (T', V, 2)
        pred = roll(ms, mb, e)[:, :, j]; last = tracks_of(e.slice(0, N_CTX), False)[-1, :, j]
        err.append(np.linalg.norm(pred - real, axis=-1)); still.append(np.linalg.norm(last[None] - real, axis=-1))
    err, still = np.array(err), np.array(still)                                                                    # (N, T', V)
    res = dict(train_steps=len(S), block_steps=len(X), episodes=len(test), seed=a.seed, fit_steps=a.steps,
               err_px={h: dict(top=float(np.nanmean(err[:, i, 0])), front=float(np.nanmean(err[:, i, 1])),
                               still_top=float(np.nanmean(still[:, i, 0])), still_front=float(np.nanmean(still[:, i, 1])))
                       for h, i in (('8', 7), ('16', 15), ('32', 31), ('end', -1))})
    Path(a.out).mkdir(parents=True, exist_ok=True)
    (Path(a.out)/'block_motion.json').write_text(json.dumps(res, indent=1)); torch.save(dict(state=ms.state_dict(), block=mb.state_dict()), Path(a.out)/'block_motion.pt')
    print(json.dumps(res['err_px'], indent=1))
    if a.model:
        from playworld.wm.model import load_world_model
        from playworld.eval.horizon import wm_horizon_eval
        from playworld.eval.judge import load_judge
        from playworld.assets import default_judge
        def block_motion(e, first): return roll(ms, mb, e, first)
        r = wm_horizon_eval(load_world_model(a.model), test, load_judge(default_judge(('top', 'front'))), (8, 16, 32), 32, a.seed, tracks=block_motion)
        res['wm_horizon'] = dict(r, model=a.model)
        (Path(a.out)/'block_motion.json').write_text(json.dumps(res, indent=1))
        s = r['survival']['by_camera']
        print('carried at end, top / front:', s['top']['end']['carried_frac'], s['front']['end']['carried_frac'], 'judge', r['judge_imagined'])

if __name__ == '__main__': main()
