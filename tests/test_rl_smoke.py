"""A tiny end-to-end RL step in seconds: a random 32-px world model, a tiny diffusion policy, G = 4, one update, for
GRPO and DSRL, through `run_rl` and through the `playworld rl` argument parser (judge loaded by 'module:function')."""
import argparse, json
import numpy as np
import pytest
import torch

JUDGE_SRC = '''
import numpy as np
def brighter(frames, instruction):
    "Stand-in judge: success when the last frame is brighter than the first."
    return frames[:, -1].mean((1, 2, 3)) > frames[:, 0].mean((1, 2, 3))
'''


@pytest.fixture(scope='session')   # built once per run (make test sends each file whole to one worker)
def ckpts(tmp_path_factory):
    from playworld.wm.model import ActionVideoDenoiser
    from playworld.rl.policy import DiffusionPolicy, save_policy
    d = tmp_path_factory.mktemp('rl')
    torch.manual_seed(0)
    wm = ActionVideoDenoiser(size=32, n_ctx=2, block_out_channels=(8, 8), norm_num_groups=4, n_sampling_steps=1)
    wm.save_pretrained(d/'wm')
    pol = DiffusionPolicy(size=32, enc_channels=(16, 16), cond_dim=32, width=32, n_blocks=2, n_infer_steps=4)
    save_policy(pol, d/'pol')
    (d/'judges').mkdir(); (d/'judges'/'rl_smoke_judge.py').write_text(JUDGE_SRC)
    return d


@pytest.mark.parametrize('method', ['grpo', 'dsrl'])
def test_rl_step(ckpts, tmp_path, method, monkeypatch):
    from playworld.rl.run import run_rl
    from playworld.rl.policy import load_policy
    monkeypatch.syspath_prepend(str(ckpts/'judges'))
    res = run_rl(method, ckpts/'pol', ckpts/'wm', 'rl_smoke_judge:brighter', tmp_path/'out', n_starts=2, n_updates=1,
                 groups_per_update=2, G=4, steps=8, lr=1e-3, log=None)
    (c,) = res['curve']
    assert c['rollouts'] == 8 and 0 <= c['imagined_success'] <= 1
    saved = json.loads((tmp_path/'out'/'rl.json').read_text())
    assert saved['curve'][0]['imagined_success'] == c['imagined_success']
    if method == 'grpo':
        new, old = load_policy(tmp_path/'out'/'policy'), load_policy(ckpts/'pol')
        changed = any(not torch.equal(a, b) for a, b in zip(new.state_dict().values(), old.state_dict().values()))
        assert changed == (c['kept'] > 0)          # weights move only when a group had mixed success
    else:
        assert (tmp_path/'out'/'noise_policy'/'model.safetensors').exists()


def test_rl_cli(ckpts, tmp_path, monkeypatch, capsys):
    from playworld.app.cli import add_rl_parser
    monkeypatch.syspath_prepend(str(ckpts/'judges'))
    p = argparse.ArgumentParser(); add_rl_parser(p.add_subparsers(dest='command'))
    a = p.parse_args(['rl', '--method', 'dsrl', '--policy', str(ckpts/'pol'), '--checkpoint', str(ckpts/'wm'),
                      '--judge', 'rl_smoke_judge:brighter', '--out', str(tmp_path/'o'), '--starts', '1', '--updates', '1',
                      '--groups', '1', '--G', '4', '--steps', '8', '--quiet'])
    a.func(a)
    out = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert out['method'] == 'dsrl' and len(out['imagined_success']) == 1


def test_rl_bad_inputs(ckpts, tmp_path):
    from playworld.rl.run import run_rl
    with pytest.raises(ValueError, match="'package.module:function'"):
        run_rl('grpo', ckpts/'pol', ckpts/'wm', 'nojudge', tmp_path/'o')
    with pytest.raises(FileNotFoundError, match='config.json missing'):
        run_rl('grpo', tmp_path/'missing', ckpts/'wm', 'x:y', tmp_path/'o')
