#!/bin/sh
# models/fuzz/coverage_replay.sh BUILD_FUZZ_DIR -- builds BUILD_FUZZ_DIR/cov_grids/replay: the
# lsdae_fuzz_grids target with the readers, the case builder, the system's initialization,
# the MATPOWER power flow and grid data (mode 5) and gridcore's Newton compiled for source coverage (-fprofile-instr-generate -fcoverage-mapping),
# the rest linked from BUILD_FUZZ_DIR (built first: cmake --build BUILD_FUZZ_DIR --target
# lsdae_fuzz_grids). Then (docs/fuzzing.md, "Grid files"):
#   cd BUILD_FUZZ_DIR/cov_grids && LLVM_PROFILE_FILE=r.profraw ./replay -runs=0 ../corpus_grids SEEDS
#   llvm-profdata-14 merge -o r.profdata r.profraw && llvm-cov-14 report ./replay -instr-profile=r.profdata
set -e
R=$(cd "$(dirname "$0")/../.." && pwd)
mkdir -p "$1/cov_grids"
cd "$1/cov_grids"
INC="-I/usr/include/suitesparse -I$R/models -I$R/abi -I../include"
for layer in common import fmu system simulation supervise sweep capi; do INC="$INC -I$R/runtime/$layer/include"; done
SRC="$R/models/psse/io/psse_text.cpp $R/models/psse/io/raw_records.cpp $R/models/psse/io/raw_reader.cpp
 $R/models/psse/io/dyr_reader.cpp
 $R/models/psse/network/network.cpp $R/models/psse/network/power_flow.cpp $R/models/psse/network/step_up.cpp
 $R/models/psse/system/disturbance_runtime.cpp $R/models/psse/system/event_solver.cpp $R/models/psse/system/system.cpp
 $R/models/psse/system/system_build.cpp $R/models/psse/system/system_declare.cpp $R/models/psse/system/system_eval.cpp
 $R/models/psse/system/system_events.cpp $R/models/psse/system/islands.cpp $R/models/psse/system/system_islands.cpp
 $R/models/psse/system/slot_work.cpp $R/models/psse/case/case_builder.cpp $R/models/psse/case/case_options.cpp
 $R/models/psse/scenarios/con_file.cpp $R/models/powergrid/matpower_case.cpp
 $R/models/powergrid/ybus.cpp $R/models/powergrid/power_flow.cpp $R/models/powergrid/machines.cpp
 $R/models/powergrid/grid_builder.cpp $R/models/powergrid/grid_data.cpp
 $R/models/powergrid/scenarios/matpower_changes.cpp
 $R/models/gridcore/newton_power_flow.cpp $R/models/gridcore/klu_solver.cpp $R/models/fuzz/fuzz_grids.cpp"
for s in $SRC; do
  o=$(basename "$(dirname "$s")")_$(basename "$s" .cpp).o  # psse/network and powergrid both have power_flow.cpp
  [ -f "$o" ] || clang++ -std=c++20 -O1 -g -fsanitize=fuzzer-no-link -fprofile-instr-generate -fcoverage-mapping \
    $INC -c "$s" -o "$o"
done
clang++ -fsanitize=fuzzer -fprofile-instr-generate *.o ../models/psse/liblsdae_psse_models.a \
  ../models/gridcore/liblsdae_gridcore.a -lklu -lbtf -lamd -lcolamd -lsuitesparseconfig \
  ../models/kit/liblsdae_kit.a ../runtime/common/liblsdae_common.a -o replay
