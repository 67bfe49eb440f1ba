# tests/bench/native_matches_lsdae.cmake -- the native reference solver
# (bench/native) is the benchmark's yardstick only if it solves lsdae's
# problem: same unknowns, residuals, Jacobian and solver set-up, hence the
# same steps. Runs `lsdae simulate` on the TransmissionLine FMU and
# `tl_native` on the same form and N, requires equal IDA counters, and the
# native solution to be within 1e-5 (scaled) of the reference trajectory.
# Inputs: LSDAE, NATIVE, FMU (the .fmu), FORM (ode|dae), N, REFERENCE, WORK;
# ROW_ORDER (matched|declared, default matched) is given to both programs.
# lsdae runs with --eliminate off: the native DAE solver integrates every
# unknown (the eliminated DAE is the ODE form's problem, compared there);
# and with --no-jacobian-reuse: the native solver evaluates a Jacobian at
# every IDA setup, as IDA does (lsdae's default re-forms the last one for a
# new cj, docs/algorithms-jacobian.md).
cmake_minimum_required(VERSION 3.25)
if(NOT ROW_ORDER)
  set(ROW_ORDER matched)
endif()
file(MAKE_DIRECTORY ${WORK})
execute_process(COMMAND ${LSDAE} simulate ${FMU} --stats ${WORK}/lsdae.json -o ${WORK}/lsdae.csv --no-progress
                        --output-vars v_load --row-order ${ROW_ORDER} --eliminate off --no-jacobian-reuse
                RESULT_VARIABLE rc ERROR_VARIABLE err OUTPUT_QUIET)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "lsdae simulate ${FMU} failed (${rc}): ${err}")
endif()
execute_process(COMMAND ${NATIVE} --form ${FORM} -N ${N} --row-order ${ROW_ORDER} --stats ${WORK}/native.json --reference ${REFERENCE}
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "tl_native --form ${FORM} -N ${N} failed (${rc}): ${out}${err}")
endif()
file(READ ${WORK}/lsdae.json lsdae)
file(READ ${WORK}/native.json native)
set(differences "")
# Appends "<label>: lsdae A, native B" when the member at the JSON path differs.
function(compare label)
  string(JSON a GET "${lsdae}" ${ARGN})
  string(JSON b GET "${native}" ${ARGN})
  if(NOT a STREQUAL b)
    set(differences ${differences} "${label}: lsdae ${a}, native ${b}" PARENT_SCOPE)
  endif()
endfunction()
foreach(counter steps residual_calls jacobian_evaluations nonlinear_iterations error_test_failures
                nonlinear_convergence_failures linear_solver_setups)
  compare(${counter} counters ${counter})
endforeach()
foreach(member unknowns differential algebraic)
  compare(model.${member} model ${member})
endforeach()
compare(jacobian.nonzeros jacobian nonzeros)
if(differences)
  list(JOIN differences "\n  " text)
  message(FATAL_ERROR "${FORM} form, N = ${N}, ${ROW_ORDER} rows: the native solver does not take lsdae's steps:\n  ${text}\n"
                      "→ bench/native/transmission_line.cpp must follow models/transmission_line/model.cpp and "
                      "the simulator's order of unknowns and rows")
endif()
string(STRIP "${out}" out)
message(STATUS "${out}")
