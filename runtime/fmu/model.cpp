// runtime/fmu/model.cpp -- lsdae::Model (lsdae/model.h): the interface's one
// out-of-line member, its destructor, so that its vtable and type
// information have one home (the key function: liblsdae.so) instead of a
// weak copy in every file that includes the header.
#include "lsdae/model.h"

namespace lsdae {

Model::~Model() = default;

}  // namespace lsdae
