#!/usr/bin/python3
"""bench/eliminate_default.py -- issue 30, goal 3: may `--eliminate auto` be the default?

"No corpus run gets slower than with `off`": runs every FMU of a folder (the
catalog, build/fmus) once with `--eliminate auto` to find the ones that
eliminate (statistics `model.eliminated` > 0), then runs each of those side by
side with `--eliminate off` and `--eliminate auto`, interleaved (the order
alternates between repetitions, so drift in machine load hits both alike),
--repeat times, and keeps the least CPU time (user + system of the child
process, from spawn to exit) of each. Also recorded: steps, residual calls,
Jacobians (counted, deterministic) and the largest difference between the two
results relative to each column's range (columns whose range is below 1e-6,
the residual variables, left out).

    scripts/build.sh lsdae lsdae_fmus
    /usr/bin/python3 bench/eliminate_default.py --lsdae build/bin/lsdae --fmus build/fmus [--repeat 5]

Prints the markdown table of docs/performance/*.md and writes <out>/eliminate.json.
"""

import argparse
import csv
import datetime
import glob
import json
import os
import platform
import resource
import subprocess
import sys


def cpu_of_children():
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def flat_stats(path):
    with open(path) as f:
        s = json.load(f)
    flat = {}
    for key, group in s.items():
        if isinstance(group, dict):
            for k, v in group.items():
                flat[f'{key}.{k}'] = v
    return flat


def run(lsdae, fmu, mode, out_dir, tag):
    out = os.path.join(out_dir, f'{tag}.csv')
    stats = os.path.join(out_dir, f'{tag}.json')
    cmd = [lsdae, 'simulate', fmu, '--eliminate', mode, '--no-progress', '-o', out, '--stats', stats]
    before = cpu_of_children()
    done = subprocess.run(cmd, capture_output=True, text=True)
    cpu = cpu_of_children() - before
    if done.returncode != 0:
        return {'rc': done.returncode, 'cpu': cpu, 'stderr': done.stderr[-400:]}
    return {'rc': 0, 'cpu': cpu, 'csv': out, 'stats': flat_stats(stats)}


def read_columns(path):
    with open(path) as f:
        rows = list(csv.reader(f))
    header, body = rows[0], rows[1:]
    return header, [[float(x) for x in r] for r in body]


def largest_relative_difference(a, b):
    ha, ra = read_columns(a)
    hb, rb = read_columns(b)
    if ha != hb or len(ra) != len(rb):
        return float('inf')
    worst = 0.0
    for j in range(1, len(ha)):
        col_a = [r[j] for r in ra]
        col_b = [r[j] for r in rb]
        span = max(max(col_a) - min(col_a), max(abs(x) for x in col_a))
        if span < 1e-6:  # a residual variable (0 to the tolerance): its rounding is no difference
            continue
        worst = max(worst, max(abs(x - y) for x, y in zip(col_a, col_b)) / span)
    return worst


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--lsdae', default='build/bin/lsdae')
    ap.add_argument('--fmus', default='build/fmus')
    ap.add_argument('--repeat', type=int, default=5)
    ap.add_argument('--out', default='/tmp/lsdae-eliminate')
    ap.add_argument('--only', nargs='*', help='FMU names (without .fmu) instead of the scan')
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    fmus = sorted(glob.glob(os.path.join(args.fmus, '*.fmu')))
    if args.only:
        fmus = [f for f in fmus if os.path.basename(f)[:-4] in args.only]
    chosen = []
    for fmu in fmus:
        name = os.path.basename(fmu)[:-4]
        r = run(args.lsdae, fmu, 'auto', args.out, f'{name}.scan')
        if r['rc'] == 0 and r['stats'].get('model.eliminated', 0) > 0:
            chosen.append((name, fmu))
    load = os.getloadavg()
    rows = []
    for name, fmu in chosen:
        best, failed = {}, {}
        for k in range(args.repeat):
            order = ('off', 'auto') if k % 2 == 0 else ('auto', 'off')
            for mode in order:
                r = run(args.lsdae, fmu, mode, args.out, f'{name}.{mode}')
                if r['rc'] != 0:
                    failed[mode] = r
                elif mode not in best or r['cpu'] < best[mode]['cpu']:
                    best[mode] = r
        if failed:  # a run that fails in either mode is listed, not timed
            rows.append({'fmu': name, 'failed': {m: {'rc': r['rc'], 'stderr': r['stderr']} for m, r in failed.items()}})
            continue
        diff = largest_relative_difference(best['off']['csv'], best['auto']['csv'])
        row = {'fmu': name, 'eliminated': best['auto']['stats'].get('model.eliminated'),
               'unknowns': best['off']['stats'].get('model.unknowns')}
        for mode in ('off', 'auto'):
            s = best[mode]['stats']
            row[mode] = {'cpu': best[mode]['cpu'], 'steps': s.get('counters.steps'),
                         'residuals': s.get('counters.residual_calls'), 'jacobians': s.get('counters.jacobian_evaluations')}
        row['ratio'] = row['auto']['cpu'] / row['off']['cpu'] if row['off']['cpu'] > 0 else float('nan')
        row['difference'] = diff
        rows.append(row)
    record = {'date': datetime.datetime.now(datetime.timezone.utc).isoformat(timespec='seconds'),
              'machine': platform.processor() or platform.machine(), 'cores': os.cpu_count(),
              'load_before': load, 'load_after': os.getloadavg(), 'repeat': args.repeat, 'rows': rows}
    with open(os.path.join(args.out, 'eliminate.json'), 'w') as f:
        json.dump(record, f, indent=1)
    print(f'load {load[0]:.1f} before, {record["load_after"][0]:.1f} after; least CPU of {args.repeat}, interleaved')
    print('| FMU | eliminated / unknowns | off: CPU s, steps | auto: CPU s, steps | auto / off | largest difference |')
    print('|---|---|---|---|---|---|')
    for r in rows:
        if 'failed' in r:
            said = '; '.join(f'{m}: exit {f["rc"]}' for m, f in r['failed'].items())
            print(f'| {r["fmu"]} | failed ({said}) | | | | |')
            continue
        print(f'| {r["fmu"]} | {r["eliminated"]} / {r["unknowns"]} | {r["off"]["cpu"]:.3f}, {r["off"]["steps"]} | '
              f'{r["auto"]["cpu"]:.3f}, {r["auto"]["steps"]} | {r["ratio"]:.2f} | {r["difference"]:.1e} |')


if __name__ == '__main__':
    main()
