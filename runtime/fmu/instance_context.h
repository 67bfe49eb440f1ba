// runtime/fmu/instance_context.h -- what an FMU instance knows of the FMU
// that made it: a small context instead of the lsdae::Fmu object.
//
// Fmu::instantiate makes one context per instance and hands it to the
// binary (binary.h), which gives it to the instance it makes (fmu_instance.h).
// The instance keeps the context, and so what the context holds, alive: the
// model description and manifest it serves, and the FMU's unpacked folder
// (its resources/ stay until the last instance and the Fmu are gone). It
// never sees the Fmu, and changes nothing of it but the count of live
// instances, through the InstanceCounter the Fmu shares with it.
#ifndef LSDAE_RUNTIME_FMU_INSTANCE_CONTEXT_H
#define LSDAE_RUNTIME_FMU_INSTANCE_CONTEXT_H

#include <atomic>
#include <cstddef>
#include <filesystem>
#include <memory>
#include <string>

#include "lsdae/manifest.h"
#include "lsdae/model_description.h"

namespace lsdae {

// The live instances of one FMU, shared by the Fmu (which refuses a second
// instance of an FMU with canBeInstantiatedOnlyOncePerProcess) and its
// instances (each counted from its construction to its destruction, through
// a Counted). Thread-safe: instances of one FMU may be made and freed on
// several threads.
class InstanceCounter {
 public:
  std::size_t live() const noexcept { return live_.load(); }

  // One counted instance: counts +1 while it lives.
  class Counted {
   public:
    explicit Counted(std::shared_ptr<InstanceCounter> counter) noexcept : counter_(std::move(counter)) {
      if (counter_) ++counter_->live_;
    }
    ~Counted() {
      if (counter_) --counter_->live_;
    }
    Counted(const Counted&) = delete;
    Counted& operator=(const Counted&) = delete;

   private:
    std::shared_ptr<InstanceCounter> counter_;
  };

 private:
  std::atomic<std::size_t> live_{0};
};

struct InstanceContext {
  std::shared_ptr<const ModelDescription> description;  // the FMU's; never null
  std::shared_ptr<const Manifest> manifest;             // its LS-DAE manifest (present() or not); never null
  std::filesystem::path resources;   // <unpacked FMU>/resources: FMI 3.0 passes the path, FMI 2.0 a file: URI
  std::string display_name;          // the FMU's file name, for messages
  std::size_t states = 0;            // scalar continuous states and event indicators, as the Fmu read them
  std::size_t event_indicators = 0;  //   (FMI 2.0 has no call for them)
  bool directional_derivatives = false;  // Fmu::directional_derivatives_available() when instantiated
  std::shared_ptr<InstanceCounter> counter;  // the FMU's live instances; never null
  std::shared_ptr<const void> files;         // the unpacked folder's owner (null: opened in place)
};

}  // namespace lsdae

#endif  // LSDAE_RUNTIME_FMU_INSTANCE_CONTEXT_H
