// runtime/fmu/shared_object.h -- an FMU's binary opened with dlopen, for
// either FMI version (fmi3/library.h, fmi2/library.h): the checks and messages
// of opening it, the lookup of its functions, and dlclose when it goes.
//
// Contract: the constructor opens `path` (RTLD_NOW | RTLD_LOCAL) with the
// loader's call record set (the binary's own initialisers run inside dlopen,
// so a crash there is reported like an FMU call) and throws Error(binary)
// `<fmu>: binaries/<folder>/<file> is missing ... → export the FMU for
// <folder> ...` or `<fmu>: cannot load <file>: <dlopen's message> → ...`.
// resolve() returns an exported function or nullptr; a required one that is
// missing throws Error(binary) naming it with the caller's advice, an
// optional one is listed in missing_optional(). Cost: one dlsym per name.
#ifndef LSDAE_RUNTIME_FMU_SHARED_OBJECT_H
#define LSDAE_RUNTIME_FMU_SHARED_OBJECT_H

#include <filesystem>
#include <string>
#include <vector>

namespace lsdae {

class SharedObject {
 public:
  // `folder`: the binaries/ folder the file should be in, for the message.
  SharedObject(const std::filesystem::path& path, const std::string& fmu_name, const std::string& folder);
  ~SharedObject();
  SharedObject(const SharedObject&) = delete;
  SharedObject& operator=(const SharedObject&) = delete;

  // The function `name` the binary exports, or nullptr when it is optional
  // and missing. `advice`: what to do when a required one is missing.
  void* resolve(const char* name, bool required, const char* advice);
  // Throws Error(binary) "<fmu>: <message>".
  [[noreturn]] void fail(const std::string& message) const;
  const std::vector<std::string>& missing_optional() const { return missing_optional_; }

 private:
  void* handle_ = nullptr;
  std::filesystem::path path_;
  std::string fmu_name_;
  std::vector<std::string> missing_optional_;
};

}  // namespace lsdae

#endif  // LSDAE_RUNTIME_FMU_SHARED_OBJECT_H
