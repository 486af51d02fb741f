"""`playworld evaluate real --distractors K`: a saved policy measured in the tabletop with K objects no task names
(World-Gymnast's distractor scenario). The command's outcomes are the in-process `evaluate_real(..., scene=Scene(K))`
ones (the notebook `10_envs.tabletop` checks that the distractors are on the table and in view), and a count the scene
cannot hold is refused by name."""
import json
from _stages import ROOT, run_cli

POLICY = ROOT/'data_samples'/'rl'/'policies'/'lift'/'base'

def test_evaluate_real_with_distractors():
    from playworld.envs.tabletop import Scene
    from playworld.rl.policy import load_policy, evaluate_real
    args = ('evaluate', 'real', '--policy', POLICY, '--family', 'lift', '--episodes', 4, '--seed', 123, '--max-steps', 30, '--json')
    r = run_cli(*args, '--distractors', 2)
    assert r.returncode == 0, r.stderr[-2000:]
    got = json.loads(r.stdout.strip().splitlines()[-1])
    want = evaluate_real(load_policy(POLICY), 4, ('lift',), seed=123, max_steps=30, use_state=False, scene=Scene(distractors=2))['lift']
    assert (got['n'], got['successes'], got['distractors']) == (4, want['successes'], 2)
    bad = run_cli(*args, '--distractors', 5)
    assert bad.returncode != 0 and 'distractors must be an integer from 0 to 3, got 5' in bad.stderr, bad.stderr[-1000:]
