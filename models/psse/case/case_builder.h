// models/psse/case/case_builder.h -- a PSS/E case (.raw + .dyr) turned into
// the system the FMU simulates: the network and its power flow, one
// component per machine/controller record of the .dyr and per load record of
// the .raw, each placed at its bus and unit, and the disturbances.
//
// Rules (docs/psse.md, "What lsdae supports of PSS/E"):
// * every .dyr record is kept by the reader; a record whose model lsdae does
//   not implement (registry.h) is UNSUPPORTED: the build is refused, naming
//   each with its bus, id and line, unless the options substitute its model
//   (MODEL=OTHER reads the record as OTHER, MODEL=none drops it) or ask to
//   skip the unsupported ones -- both are reported;
// * a record for a generator that is out of service is dropped (reported);
//   for a generator that is not in the case, it is unsupported as above;
// * a stabilizer on a unit without an exciter is dropped (reported): its one
//   output is the exciter's VOTHSG input;
// * an in-service generator needs exactly one machine model; without one it
//   is unsupported, with two the build is refused. Skipped (skip_unsupported),
//   it is held as CaseOptions::unmodelled says (docs/psse.md, "Generators
//   without a machine record"): by default (source) as a constant EMF behind
//   its ZSORCE at the power-flow point -- PSS/E's Norton source (ISORCE
//   behind ZSORCE) with no model to update ISORCE, i.e. GENCLS with H = 0: no
//   swing, no inertia, a source for islanding, trippable; or (current) as a
//   constant-current source at its power-flow injection (a negative load with
//   its current's power factor fixed to its bus voltage; no source for
//   islanding);
// * every in-service load is a ZIP load (loads/zip_load.h) with the options'
//   conversion and breakpoint (default: the case's PQBRAK).
//
// Contract: throws TextError (file, line, field) for malformed files and
// ModelError for models and data the simulation cannot take; the messages say
// what to do. The report lists every decision.
#ifndef LSDAE_MODELS_PSSE_CASE_CASE_BUILDER_H
#define LSDAE_MODELS_PSSE_CASE_CASE_BUILDER_H

#include <map>
#include <string>
#include <vector>

#include "psse/core/disturbances.h"
#include "psse/io/dyr_record.h"
#include "psse/io/raw_case.h"
#include "psse/loads/zip_load.h"
#include "psse/network/power_flow.h"
#include "psse/system/system.h"

namespace lsdae::psse {

// How an in-service generator without a machine record is held under
// skip_unsupported (the header's rules).
enum class Unmodelled { source, current };

struct CaseOptions {
  int raw_version = 0;                             // 0: the file's REV
  std::map<std::string, std::string> substitute;   // MODEL -> OTHER or "none"
  bool skip_unsupported = false;
  Unmodelled unmodelled = Unmodelled::source;     // generators without a machine record
  LoadConversion loads;                            // breakpoint < 0: the case's PQBRAK
  bool vs_set_points = false;
  bool hold_initial_limits = false;                // SystemInput::hold_initial_limits
  Disturbances disturbances;
};

struct BuiltCase {
  RawCase raw;
  std::vector<DyrRecord> dyr;
  OperatingPoint operating_point;
  SystemInput input;
  std::vector<std::string> report;  // the decisions, one line each
};

BuiltCase build_case(const std::string& raw_path, const std::string& dyr_path, const CaseOptions& options);
// The same from files already read (the tests).
BuiltCase build_case(RawCase raw, std::vector<DyrRecord> dyr, const CaseOptions& options);

// Options from the key=value settings the FMU carries and the tool writes:
//   raw_version=33  substitute=GENSAE:GENSAL,ESST4B:none  skip_unsupported=true
//   unmodelled_generators=source|current
//   load_conversion=PI,PY,QI,QY (percent)  load_breakpoint=0.7  pv_set_points=stored|vs
//   initial_limits=widen|hold (a limit the value starts beyond: system.h SystemInput)
//   faults=BUS:T_ON:T_OFF:R:X,...  trips=FROM-TO-CKT@TIME,...  gentrips=BUS-ID@TIME,...
//   loadsteps=BUS:TIME:P:Q,...  fault_buses= trip_branches= loadstep_buses= (disturbances.h)
// Throws std::invalid_argument naming the key, the value seen and the form expected.
CaseOptions case_options(const std::map<std::string, std::string>& settings);
// The settings that give back `options` (the inverse of case_options).
std::map<std::string, std::string> case_settings(const CaseOptions& options);

}  // namespace lsdae::psse

#endif  // LSDAE_MODELS_PSSE_CASE_CASE_BUILDER_H
