// runtime/run/model_files.cpp -- see model_files.h.
#include "run/model_files.h"

#include "lsdae/error.h"
#include "lsdae/system.h"

namespace lsdae::run {

std::vector<files::ReadPath> model_files(const Model& model, const std::string& given, const std::string& what) {
  std::vector<files::ReadPath> inputs;
  inputs.push_back({given.empty() ? model.path().string() : given, what});
  if (const auto* system = dynamic_cast<const System*>(&model))
    for (const ComponentDescription& c : system->description().components)
      inputs.push_back({c.fmu.string(), "the FMU of component " + c.name});
  return inputs;
}

void check_run_outputs(const Model& model, const files::WritePath& results, const files::WritePath& statistics,
                       const std::vector<files::ReadPath>& also_read) {
  const std::vector<files::WritePath> outputs{results, statistics};
  std::vector<files::ReadPath> inputs = model_files(model, "", "the FMU being simulated");
  inputs.insert(inputs.end(), also_read.begin(), also_read.end());
  if (const std::string clash = files::output_over_input(outputs, inputs); !clash.empty())
    throw Error(ErrorKind::usage, clash);
  if (files::same_output(outputs))
    throw Error(ErrorKind::usage, results.option + " and " + statistics.option + " both name \"" + statistics.path +
                                      "\" → give the results and the statistics different files");
}

}  // namespace lsdae::run
