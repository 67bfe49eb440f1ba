// structure/dae_input.cpp -- see dae_input.h.
#include "structure/dae_input.h"

namespace lsdae::structure {

const char* to_string(DaeForm form) noexcept {
  switch (form) {
    case DaeForm::semi_explicit: return "semi-explicit";
    case DaeForm::fully_implicit: return "fully implicit";
  }
  return "?";
}

const char* to_string(Block block) noexcept {
  switch (block) {
    case Block::derivative: return "derivative";
    case Block::state: return "state";
    case Block::algebraic: return "algebraic";
  }
  return "?";
}

const char* to_string(StateSelect select) noexcept {
  switch (select) {
    case StateSelect::avoid: return "avoid";
    case StateSelect::normal: return "normal";
    case StateSelect::prefer: return "prefer";
  }
  return "?";
}

}  // namespace lsdae::structure
