// runtime/fmu/shared_object.cpp -- see shared_object.h.
#include "fmu/shared_object.h"

#include <dlfcn.h>

#include <system_error>

#include "fmu/call_record.h"
#include "lsdae/error.h"

namespace lsdae {

SharedObject::SharedObject(const std::filesystem::path& path, const std::string& fmu_name, const std::string& folder)
    : path_(path), fmu_name_(fmu_name) {
  std::error_code ec;
  if (!std::filesystem::exists(path, ec))
    throw Error(ErrorKind::binary, fmu_name + ": binaries/" + folder + "/" + path.filename().string() +
                                       " is missing: the FMU has no binary for this platform → export the FMU for " +
                                       folder + " (or with source code and build it)");
  dlerror();
  {
    // The binary's own initialisers run inside dlopen: mark it like an FMU call.
    call_record::CallScope scope(call_record::loader_slot(), FmiFunction::load_binary);
    handle_ = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  }
  if (handle_ == nullptr) {
    const char* why = dlerror();
    throw Error(ErrorKind::binary, fmu_name + ": cannot load " + path.filename().string() + ": " +
                                       (why ? why : "unknown dlopen error") +
                                       " → check that the binary matches this platform and its dependencies are "
                                       "installed (ldd shows them)");
  }
}

SharedObject::~SharedObject() {
  if (handle_ != nullptr) dlclose(handle_);
}

void* SharedObject::resolve(const char* name, bool required, const char* advice) {
  dlerror();
  void* symbol = dlsym(handle_, name);
  if (symbol == nullptr) {
    if (required) fail(path_.filename().string() + " does not export the required function " + name + " → " + advice);
    missing_optional_.emplace_back(name);
  }
  return symbol;
}

void SharedObject::fail(const std::string& message) const { throw Error(ErrorKind::binary, fmu_name_ + ": " + message); }

}  // namespace lsdae
