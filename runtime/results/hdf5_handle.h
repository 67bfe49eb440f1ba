// runtime/results/hdf5_handle.h -- what every HDF5 file lsdae writes or reads
// needs: an identifier closed by its own function when it goes out of scope,
// and the message HDF5's error stack holds for a call that failed.
//
// Contract: Handle owns one hid_t (negative: none) and calls `close` on it
// once (reset(), destruction, move-assignment); release() gives it up
// without closing. error_message() walks the default error stack (the
// library's messages are switched off by the callers with H5Eset_auto2) and
// clears it; "" when it is empty.
#ifndef LSDAE_RUNTIME_RESULTS_HDF5_HANDLE_H
#define LSDAE_RUNTIME_RESULTS_HDF5_HANDLE_H

#include <hdf5.h>

#include <string>

namespace lsdae::results::hdf5 {

class Handle {
 public:
  Handle() = default;
  Handle(hid_t id, herr_t (*close)(hid_t)) : id_(id), close_(close) {}
  Handle(Handle&& o) noexcept : id_(o.id_), close_(o.close_) { o.id_ = -1; }
  Handle& operator=(Handle&& o) noexcept {
    if (this != &o) {
      reset();
      id_ = o.id_;
      close_ = o.close_;
      o.id_ = -1;
    }
    return *this;
  }
  Handle(const Handle&) = delete;
  Handle& operator=(const Handle&) = delete;
  ~Handle() { reset(); }
  void reset() {
    if (id_ >= 0 && close_ != nullptr) close_(id_);
    id_ = -1;
  }
  hid_t get() const { return id_; }
  bool valid() const { return id_ >= 0; }
  hid_t release() {
    const hid_t id = id_;
    id_ = -1;
    return id;
  }

 private:
  hid_t id_ = -1;
  herr_t (*close_)(hid_t) = nullptr;
};

// The last non-empty description met walking the stack upward (from the
// function where the error arose towards the API call), e.g. "No space left
// on device" from the file driver; "" when there is none. Clears the stack.
inline std::string error_message() {
  std::string text;
  H5Ewalk2(
      H5E_DEFAULT, H5E_WALK_UPWARD,
      [](unsigned, const H5E_error2_t* e, void* data) -> herr_t {
        if (e->desc != nullptr && *e->desc != '\0') *static_cast<std::string*>(data) = e->desc;
        return 0;
      },
      &text);
  H5Eclear2(H5E_DEFAULT);
  return text;
}

}  // namespace lsdae::results::hdf5

#endif  // LSDAE_RUNTIME_RESULTS_HDF5_HANDLE_H
