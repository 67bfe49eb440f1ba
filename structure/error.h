// structure/error.h -- the one exception type of lsdae::structure.
//
// Thrown only for invalid INPUT (a caller's contract broken: an index out of
// range, a name list of the wrong length, a precondition of an algorithm).
// Properties of the MODEL (structurally singular, higher index without the
// needed <Formulation>s) are not exceptions: the analysis returns them as
// diagnostics so `lsdae info --structure` can still print a report.
//
// Every message has the house shape `where → what → value seen → what to do`
// and is produced by a function of structure/messages.h, so tests can assert
// on the exact text.
#ifndef LSDAE_STRUCTURE_ERROR_H
#define LSDAE_STRUCTURE_ERROR_H

#include <stdexcept>
#include <string>

namespace lsdae::structure {

class StructureError : public std::runtime_error {
 public:
  explicit StructureError(const std::string& message) : std::runtime_error(message) {}
};

}  // namespace lsdae::structure

#endif  // LSDAE_STRUCTURE_ERROR_H
