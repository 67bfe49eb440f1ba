// models/psse/core/registry.cpp -- see registry.h.
#include "psse/core/registry.h"

#include <cctype>
#include <string>

namespace lsdae::psse {

std::vector<const ModelEntry*> all_models() {
  std::vector<const ModelEntry*> out;
  for (auto family : {machine_models(), exciter_models(), stabilizer_models(), governor_models(), renewable_models()})
    for (const ModelEntry& e : family) out.push_back(&e);
  return out;
}

const ModelEntry* find_model(std::string_view name) {
  std::string upper(name);
  for (char& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  for (const ModelEntry* e : all_models())
    if (upper == e->name) return e;
  return nullptr;
}

}  // namespace lsdae::psse
