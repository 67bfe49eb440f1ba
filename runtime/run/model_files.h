// runtime/run/model_files.h -- the files a model was read from, as the
// inputs no output of a run may name (common/output_clash.h).
//
//   auto inputs = run::model_files(model, "model.fmu", "the FMU being simulated");
//
// One FMU: the path as given (an .fmu, or an unpacked folder: no file inside
// it may be written). A system (lsdae/system.h): the .ssp or
// .ssd as given, and each component's FMU (a bare .ssd names FMUs beside it,
// which a result file named like one of them would replace; an .ssp's
// components lie in its own temporary folder). `given` empty: the path the
// model records (Model::path()). Cost: one pass over the components; no
// file is opened.
//
//   run::check_run_outputs(model, {"lsdae_run: output.result_file", path, "output.result_file = \"result.csv\""},
//                          {"lsdae_run: output.statistics_file", stats, "..."});
//
// The doors that take a run's files by name without a command line (lsdae_run,
// Python's run(result_file=..., statistics_file=...)): neither file may be one
// of the model's files or of `also_read` (the input table) (the message of common/output_clash.h), nor both the
// same file ("A and B both name \"PATH\" → give the results and the
// statistics different files"); Error(usage), before anything is written.
#ifndef LSDAE_RUNTIME_RUN_MODEL_FILES_H
#define LSDAE_RUNTIME_RUN_MODEL_FILES_H

#include <string>
#include <vector>

#include "common/output_clash.h"
#include "lsdae/model.h"

namespace lsdae::run {

std::vector<files::ReadPath> model_files(const Model& model, const std::string& given, const std::string& what);

void check_run_outputs(const Model& model, const files::WritePath& results, const files::WritePath& statistics,
                       const std::vector<files::ReadPath>& also_read = {});

}  // namespace lsdae::run

#endif  // LSDAE_RUNTIME_RUN_MODEL_FILES_H
