"""Load on the teleop app: N = 1, 4 gradio_client sessions clicking at the control rate and holding a key, and one session's burst against another's reset; loopback only.
Writes bench/teleop.json. Same as `playworld bench teleop --json --out bench/teleop.json`.
Usage: PYTHONPATH=. .venv/bin/python bench/teleop_load.py [--clients 1,4] [--duration 10] [--threads 1]"""
import argparse, json, sys
from pathlib import Path
from playworld.app.cli import add_bench_teleop_parser

if __name__ == '__main__':
    ap = argparse.ArgumentParser(); sub = ap.add_subparsers(dest='what')
    add_bench_teleop_parser(sub)
    a = ap.parse_args(['teleop', '--out', str(Path(__file__).resolve().parent/'teleop.json')] + sys.argv[1:])
    a.func(a)
