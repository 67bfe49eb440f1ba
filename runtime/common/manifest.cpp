// runtime/common/manifest.cpp -- names and counts of lsdae/manifest.h.
#include "lsdae/manifest.h"

namespace lsdae {

const char* to_string(ManifestShape shape) noexcept {
  switch (shape) {
    case ManifestShape::none: return "none";
    case ManifestShape::draft_0_1: return "A (draft 0.1)";
    case ManifestShape::alpha_1_0_0: return "B (1.0.0-alpha.1)";
  }
  return "?";
}

const char* to_key(ManifestShape shape) noexcept {
  switch (shape) {
    case ManifestShape::none: return "none";
    case ManifestShape::draft_0_1: return "A";
    case ManifestShape::alpha_1_0_0: return "B";
  }
  return "?";
}

std::size_t Manifest::formulation_count() const {
  std::size_t n = 0;
  for (const auto& g : residuals) n += g.formulations.size();
  return n;
}

}  // namespace lsdae
