"""`playworld evaluate real --instruction TEXT`: a saved policy measured on one instruction of its family (the novel
instruction scenario: a block colour its demos never named). The command's outcomes are the in-process
`evaluate_real(..., families=(instruction,))` ones, every layout really carries that instruction, and an instruction of
another family or an unknown one is refused by name."""
import json
from _stages import ROOT, run_cli

POLICY = ROOT/'data_samples'/'rl'/'policies'/'lift'/'base'

def test_evaluate_real_one_instruction():
    from playworld.rl.policy import load_policy, evaluate_real
    args = ('evaluate', 'real', '--policy', POLICY, '--family', 'lift', '--episodes', 4, '--seed', 321, '--max-steps', 30, '--json')
    r = run_cli(*args, '--instruction', 'lift the blue block')
    assert r.returncode == 0, r.stderr[-2000:]
    got = json.loads(r.stdout.strip().splitlines()[-1])
    want = evaluate_real(load_policy(POLICY), 4, ('lift the blue block',), seed=321, max_steps=30, use_state=False, return_episodes=True)
    assert {e.instruction for e in want['episodes']} == {'lift the blue block'}
    assert (got['n'], got['successes'], got['instruction'], got['family']) == (4, want['all']['successes'], 'lift the blue block', 'lift')
    bad = run_cli(*args, '--instruction', 'put the red block in the bowl')
    assert bad.returncode != 0 and "is a 'pick_place' task, not --family 'lift'" in bad.stderr, bad.stderr[-1000:]
    bad = run_cli(*args, '--instruction', 'lift the purple block')
    assert bad.returncode != 0 and "task 'lift the purple block'" in bad.stderr, bad.stderr[-1000:]
