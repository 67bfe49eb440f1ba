#!/bin/bash
# bench/sweep/slurm_script_check.sh -- docs/examples/n1-sweep.sbatch tested without Slurm:
# its mpirun line (the script run with SLURM_NTASKS=2, as sbatch would start it) on case39's
# N-1 table, mpirun killed part-way, the script run again (it resumes), and the completed
# summary compared with a one-process sweep's rows (all but the wall time).
#
#   bench/sweep/slurm_script_check.sh LSDAE CASE39_ALL_DISTURBANCES.fmu case39.m
set -euo pipefail
lsdae=$(realpath "$1"); fmu=$(realpath "$2"); grid_case=$(realpath "$3")
script=$(realpath "$(dirname "$0")/../../docs/examples/n1-sweep.sbatch")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
{ echo "chgtab = ["; for b in $(seq 1 46); do echo "$b 0 CT_TBRCH $b BR_STATUS CT_REP 0;"; done; echo "];"; } > contab.m
export LSDAE="$lsdae" LSDAE_FMU="$fmu" LSDAE_CHGTAB=contab.m LSDAE_CASE="$grid_case" LSDAE_SUMMARY=n1.csv
export SLURM_NTASKS=2 SLURM_JOB_NAME=check
# mpirun as root needs --allow-run-as-root, and 2 ranks on a busy machine --oversubscribe.
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
bash "$script" > first.log 2>&1 &
pid=$!
# Kill the job once some rows are in.
for _ in $(seq 1 600); do
  [[ -f n1.csv ]] && (( $(wc -l < n1.csv) > 10 )) && break
  sleep 0.1
done
kill -KILL "$pid" 2>/dev/null || true
pkill -KILL -P "$pid" 2>/dev/null || true
wait "$pid" 2>/dev/null || true
sleep 1
before=$(($(wc -l < n1.csv) - 1))
echo "killed with $before of 46 rows"
bash "$script" > second.log 2>&1 || { cat second.log; exit 1; }
grep -q "(resumed)" second.log || { echo "the second run did not resume"; cat second.log; exit 1; }
LSDAE_SUMMARY=one.csv SLURM_NTASKS=1 LSDAE_MPIRUN=mpirun bash "$script" > one.log 2>&1 || true
python3 - <<'PY'
import csv, sys
def rows(p):
    return sorted(r[:5] + r[6:] for r in list(csv.reader(open(p)))[1:])
a, b = rows("n1.csv"), rows("one.csv")
print(f"resumed summary: {len(a)} rows; one-process: {len(b)} rows; equal: {a == b}")
sys.exit(0 if a == b and len(a) == 46 else 1)
PY
