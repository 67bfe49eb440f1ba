// tests/runtime/system/components.h -- the systems the tests build in C++:
// a component of a system description from a model FMU of the build
// (LSDAE_FMU_DIR) with its parameter values.
#ifndef LSDAE_TESTS_RUNTIME_SYSTEM_COMPONENTS_H
#define LSDAE_TESTS_RUNTIME_SYSTEM_COMPONENTS_H

#include <filesystem>
#include <string>
#include <utility>
#include <vector>

#include "lsdae/system_description.h"

namespace lsdae::test {

inline std::filesystem::path system_fmu(const std::string& name) {
  return std::filesystem::path(LSDAE_FMU_DIR) / (name + ".fmu");
}

inline ComponentDescription component(const std::string& name, const std::string& fmu_name,
                                      std::vector<std::pair<std::string, std::string>> parameters = {}) {
  ComponentDescription c;
  c.name = name;
  c.fmu = system_fmu(fmu_name);
  c.parameters = std::move(parameters);
  return c;
}

}  // namespace lsdae::test

#endif  // LSDAE_TESTS_RUNTIME_SYSTEM_COMPONENTS_H
