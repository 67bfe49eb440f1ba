#!/usr/bin/python3
"""bench/threads.py -- issue 30, goal 2: does --threads N ever slow a run down?

Runs, side by side and interleaved (the order rotates between repetitions, so
drift in machine load hits every variant alike), each FMU with --threads 1, 2
and 4 (--threads to change), and, with --compare BIN, the same runs with
another build's lsdae (e.g. main's, which made one FMU instance per thread):

  TransmissionLine N = 1280, DAE form (build/fmus/TransmissionLine_dae_shapeA_1280.fmu),
      the DefaultExperiment (0 .. 4e-6 s);
  case13659pegase, semi-explicit, 10 s with the fault (--fmu-pegase; built by
      cmake -DLSDAE_GRID_LARGE_CASES=ON, target
      fmu_pack_PowerGrid_case13659pegase_semi_explicit), five rotor angles out.

Each run is a separate process, timed from spawn to exit, with its own
statistics (--stats): the instances made (threads), instantiation,
initialization and integration times, steps. The best of --repeat runs is
kept per variant; the table gives them and the ratio to --threads 1 of the
same build. Results are compared too: every variant's CSV must be byte-equal
to --threads 1's (colours write disjoint columns).

    cmake --build build --target lsdae fmu_pack_TransmissionLine_dae_shapeA_1280
    /usr/bin/python3 bench/threads.py --fmu-pegase build-grid/fmus/PowerGrid_case13659pegase_semi_explicit.fmu \
        [--compare /work/main/build/bin/lsdae] [--repeat 3] [--out /tmp/threads]

Writes <out>/threads.json (machine, load, every run) and prints the
markdown table of docs/performance/systems-and-threads.md.
"""

import argparse
import datetime
import filecmp
import json
import os
import platform
import subprocess
import sys
import time

OPTIONS = []  # --options
PEGASE_VARS = 'gen[1].delta,gen[213].delta,gen[887].delta,gen[1730].delta,gen[2180].delta'


def run_once(lsdae, fmu, threads, extra, out_dir, tag):
    csv = os.path.join(out_dir, f'{tag}.csv')
    stats = os.path.join(out_dir, f'{tag}.json')
    cmd = [lsdae, 'simulate', fmu, '--threads', str(threads), '--no-progress', '-o', csv, '--stats', stats] + extra + OPTIONS
    start = time.monotonic()
    done = subprocess.run(cmd, capture_output=True, text=True)
    wall = time.monotonic() - start
    if done.returncode != 0:
        sys.exit(f'{" ".join(cmd)} failed ({done.returncode}):\n{done.stderr}')
    with open(stats) as f:
        s = json.load(f)
    flat = {}
    for group in s.values() if isinstance(s, dict) else []:
        if isinstance(group, dict):
            flat.update(group)
    return {'wall': wall, 'csv': csv, 'threads': flat.get('threads'), 'steps': flat.get('steps'),
            'jacobians': flat.get('jacobian_evaluations', flat.get('jacobians')),
            'time_instantiate': flat.get('time_instantiate', flat.get('instantiate')),
            'time_initialize': flat.get('time_initialize', flat.get('initialize')),
            'time_integrate': flat.get('time_integrate', flat.get('integrate'))}


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument('--lsdae', default='build/bin/lsdae')
    p.add_argument('--compare', help="another build's lsdae, run the same way")
    p.add_argument('--fmu-tl', default='build/fmus/TransmissionLine_dae_shapeA_1280.fmu',
                   help='one or more FMUs, comma-separated (e.g. the line at N = 160,320,640,1280), each a case '
                        'named by its file')
    p.add_argument('--fmu-pegase', help='PowerGrid_case13659pegase_semi_explicit.fmu (left out when not given)')
    p.add_argument('--threads', default='1,2,4')
    p.add_argument('--repeat', type=int, default=3)
    p.add_argument('--out', default='/tmp/lsdae-threads')
    p.add_argument('--options', default='',
                   help="more simulate options for every run, space-separated (e.g. '--no-coloring': every unknown "
                        "its own colour, enough colours per Jacobian for extra instances)")
    a = p.parse_args()
    OPTIONS.extend(a.options.split())
    os.makedirs(a.out, exist_ok=True)
    # --fmu-tl '': left out
    cases = [(os.path.basename(f).removesuffix('.fmu'), f, []) for f in a.fmu_tl.split(',') if f]
    if a.fmu_pegase:
        cases.append(('case13659pegase, 10 s', a.fmu_pegase, ['--output-vars', PEGASE_VARS]))
    builds = [('this', a.lsdae)] + ([('compare', a.compare)] if a.compare else [])
    threads = [int(t) for t in a.threads.split(',')]
    variants = [(c, b, t) for c in range(len(cases)) for b in range(len(builds)) for t in threads]
    runs = {v: [] for v in variants}
    for r in range(a.repeat):
        order = variants[r % len(variants):] + variants[:r % len(variants)]
        for (c, b, t) in order:
            tag = f'c{c}-{builds[b][0]}-t{t}-r{r}'
            runs[(c, b, t)].append(run_once(builds[b][1], cases[c][1], t, cases[c][2], a.out, tag))
    # Results: every variant equal to --threads 1 of this build.
    mismatches = []
    for (c, b, t), rs in runs.items():
        ref = runs[(c, 0, threads[0])][0]['csv']
        for run in rs:
            if not filecmp.cmp(ref, run['csv'], shallow=False):
                mismatches.append(run['csv'])
    record = {'date': datetime.datetime.now(datetime.timezone.utc).strftime('%Y-%m-%dT%H:%M:%S.%fZ'), 'machine': platform.node(),
              'nproc': os.cpu_count(), 'load': os.getloadavg(), 'cases': cases, 'builds': builds,
              'runs': {f'{c}-{b}-{t}': rs for (c, b, t), rs in runs.items()}, 'mismatches': mismatches}
    with open(os.path.join(a.out, 'threads.json'), 'w') as f:
        json.dump(record, f, indent=1)
    print(f'nproc {os.cpu_count()}, load {record["load"]}, best of {a.repeat}\n')
    # Two ratios to --threads 1 of the same build: of the best runs, and the
    # median over repetitions of the ratio within one repetition (the two runs
    # a few seconds apart: what the host's drift between repetitions spares).
    print('| case | build | --threads | instances | wall (s) | ratio to 1 | same-repetition ratio (median) '
          '| instantiate | initialize | integrate | steps | Jacobians |')
    print('|---|---|---|---|---|---|---|---|---|---|---|---|')
    for c, (name, _, _) in enumerate(cases):
        for b, (bname, _) in enumerate(builds):
            base = min(r['wall'] for r in runs[(c, b, threads[0])])
            for t in threads:
                best = min(runs[(c, b, t)], key=lambda r: r['wall'])
                paired = sorted(x['wall'] / y['wall'] for x, y in zip(runs[(c, b, t)], runs[(c, b, threads[0])]))
                f = lambda x: '—' if x is None else f'{x:.3f}'
                print(f"| {name} | {bname} | {t} | {best['threads']} | {best['wall']:.2f} | {best['wall'] / base:.2f} | "
                      f"{paired[len(paired) // 2]:.2f} | "
                      f"{f(best['time_instantiate'])} | {f(best['time_initialize'])} | {f(best['time_integrate'])} | "
                      f"{best['steps']} | {best['jacobians']} |")
    print('\nresults equal to --threads 1:', 'yes' if not mismatches else f'NO: {mismatches}')
    return 1 if mismatches else 0


if __name__ == '__main__':
    sys.exit(main())
