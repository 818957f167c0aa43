"""Rescore AgentBench runs of 54895a2 whose answer carried its caveat inside it (disputed / unconfirmed):
the same answer without the appended '(ragix: ...)' paragraph, as 8475338 writes it, judged by the same
last-number rule (eval/benchmarks/answers.py). Prints each run that changes and writes the rescored report.

    python benchmarks/results/issue34/rescore_caveat.py REPORT.json OUT.json
"""
import json
import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))
from ragix_core.eval.benchmarks.answers import last_number  # noqa: E402
d = json.load(open(sys.argv[1]))
changed = 0
for s in d['scenarios']:
    if s['strategy'] != 'graph_v30' or s['stop_reason'] not in ('disputed', 'unconfirmed'):
        continue
    m = re.match(r"expected (\S+), got", s.get('checker_detail') or '')
    ans = s['final_answer'] or ''
    cut = ans.rfind('\n\n(ragix: ')
    if cut < 0:
        continue
    stripped = ans[:cut]
    want = float(m.group(1).strip("'")) if m else None
    got = last_number(stripped)
    now = want is not None and got is not None and abs(got - want) < 1e-6
    if now != s['passed']:
        changed += 1
        print(s['id'], s['stop_reason'], 'was', s['passed'], '-> now', now, '| stripped answer:', stripped[:80].replace('\n', ' / '))
        s['passed'] = now
print('changed', changed)
json.dump(d, open(sys.argv[2], 'w'), indent=1)
