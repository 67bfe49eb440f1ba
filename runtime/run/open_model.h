// runtime/run/open_model.h -- a model by its path, whatever it is: the one
// place every front door opens what it simulates.
//
//   .fmu or an unpacked FMU folder   Fmu::open (lsdae/fmu.h): unpacked into a
//                                    private temporary folder, parsed, validated;
//   .ssp or .ssd                     read_system_description (lsdae/ssp.h) and
//                                    System::create (lsdae/system.h): a system
//                                    of FMUs composed into one DAE, every
//                                    variable named "component.variable".
// Either way the result runs the same (lsdae/model.h: "a single FMU is a
// system of one component"); no binary is loaded here (the supervised child
// or the first Simulation::create loads it).
//
// `options` (OpenOptions: archive limits, validation, --strict, the temporary
// root) apply to the FMU, or to every component of a system and to the .ssp
// archive. Errors: lsdae::Error as Fmu::open and read_system_description
// throw them (usage for a missing file, archive, xml, invalid).
#ifndef LSDAE_RUNTIME_RUN_OPEN_MODEL_H
#define LSDAE_RUNTIME_RUN_OPEN_MODEL_H

#include <filesystem>
#include <memory>
#include <vector>

#include "lsdae/fmu.h"
#include "lsdae/model.h"

namespace lsdae::run {

struct OpenedModel {
  std::shared_ptr<const Model> model;  // what Simulation::create takes
  std::shared_ptr<Fmu> fmu;            // the model as one FMU; null for a system
  // The temporary folders this process unpacked (the FMU's, the .ssp's, each
  // component FMU's): what a front door that may be killed removes on its
  // way out (StopSignals::remove_on_abort). Folders given unpacked are not listed.
  std::vector<std::filesystem::path> unpacked;
};

OpenedModel open_model(const std::filesystem::path& path, const OpenOptions& options = {});

// For a front door about to end its process: removes the folders `opened`
// unpacked now (what its destructors would do) and keeps the rest reachable,
// unfreed, until the process exits, which returns the memory at once. A
// large FMU's description is freed object by object otherwise: the every-
// model ACTIVSg2000 FMU's (36 597 variables) took 0.14 s, a seventh of the
// CPU of `lsdae simulate --stop 0.001` outside the FMU's claims check, and
// the supervising process had nothing else to do with it. Reachable, the
// memory is no leak to LeakSanitizer. Call it once the model is no longer
// used (one thread); nothing of `opened` may be used after.
void keep_until_exit(OpenedModel&& opened);

}  // namespace lsdae::run

#endif  // LSDAE_RUNTIME_RUN_OPEN_MODEL_H
