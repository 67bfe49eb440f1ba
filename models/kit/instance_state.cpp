// models/kit/instance_state.cpp -- the FMU state of a kit instance (FMI 3.0
// section 2.2.6.4 "Getting and Setting the Complete FMU State"; FMI 2.0
// section 2.1.8): fmi3GetFMUState, fmi3SetFMUState, fmi3FreeFMUState and,
// with canSerializeFMUState, fmi3SerializedFMUStateSize,
// fmi3SerializeFMUState and fmi3DeserializeFMUState.
//
// What a state holds: everything a later call can observe -- the mode, the
// time, every Float64 and Boolean value (parameters, states, derivatives,
// algebraic and discrete variables, the DAE switch), the start time given at
// Initialization Mode (and FMI 2.0's fmi2SetupExperiment start time), the
// clocks' schedule (ClockRun) and what the model keeps outside the value
// store (Model::internal_state()). Lazily computed results and the partial
// derivative table are caches of the values: they are dropped at
// fmi3SetFMUState and recomputed from the restored values, so an evaluation
// after a set gives bitwise the values an evaluation gave where the state was
// taken (tests/models/kit_fmu_state_test.cpp).
//
// Rules: the calls need the capability the FMU declares (Config key
// fmu_state: get_set or serialize; else fmi3Error naming the key); not in
// Configuration Mode. A state belongs to the instance that made it (the
// standard's rule); another pointer, a freed one or one of another instance
// is refused (fmi3Error), never dereferenced. fmi3GetFMUState with *state
// set overwrites that state in place. fmi3FreeFMUState(NULL state) is a no-op.
//
// Byte format (native byte order and IEEE doubles: a state is read back by
// the same binary on the same platform, as FMI 3.0 allows): the magic
// "LSDAEFS1", then 64-bit counts and raw values --
//   token length, instantiation token bytes, mode, time, start time, setup
//   start time, n_f64 and the Float64 values, n_bool and the Boolean bytes,
//   n_clocks and per clock its fields (ClockRun), n_internal and the model's
//   numbers.
// fmi3DeserializeFMUState refuses bytes of another FMU (token), another
// variable count, a short or long buffer, an unknown mode: fmi3Error with the
// reason, no state made.
//
// Cost: O(variables + clocks) time and memory per get/set/serialize.
#include <cstring>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "kit/instance.h"

namespace lsdae::kit {

struct Instance::SavedState {
  Mode mode = Mode::instantiated;
  double time = 0.0, start_time = 0.0, setup_start_time = 0.0;
  std::vector<double> f64;
  std::vector<std::uint8_t> boolean;
  std::vector<ClockRun> clocks;
  std::vector<double> internal;
};

namespace {

constexpr char kMagic[8] = {'L', 'S', 'D', 'A', 'E', 'F', 'S', '1'};

class Writer {
 public:
  void bytes(const void* p, std::size_t n) {
    if (n == 0) return;  // an empty vector's data() may be NULL
    const auto* b = static_cast<const std::uint8_t*>(p);
    out.insert(out.end(), b, b + n);
  }
  template <typename T>
  void value(T v) {
    bytes(&v, sizeof v);
  }
  std::vector<std::uint8_t> out;
};

class Reader {
 public:
  Reader(const std::uint8_t* p, std::size_t n) : p_(p), n_(n) {}
  void bytes(void* to, std::size_t n, const char* what) {
    if (n > n_ - at_)
      throw std::invalid_argument("the bytes end inside " + std::string(what) + " (" + std::to_string(n_) +
                                  " bytes in all)");
    if (n == 0) return;  // memcpy's arguments must not be NULL, even for 0 bytes
    std::memcpy(to, p_ + at_, n);
    at_ += n;
  }
  template <typename T>
  T value(const char* what) {
    T v;
    bytes(&v, sizeof v, what);
    return v;
  }
  std::uint64_t count(const char* what, std::uint64_t expected) {
    const auto n = value<std::uint64_t>(what);
    if (n != expected)
      throw std::invalid_argument(std::string(what) + " is " + std::to_string(n) + ", this FMU has " +
                                  std::to_string(expected));
    return n;
  }
  bool done() const { return at_ == n_; }

 private:
  const std::uint8_t* p_;
  std::size_t n_, at_ = 0;
};

void write_clock(Writer& w, const auto& c) {
  w.value<std::uint64_t>(c.vr);
  w.value(c.interval);
  w.value(c.shift);
  w.value(c.counter);
  w.value(c.resolution);
  w.value(c.shift_counter);
  w.value<std::uint8_t>(c.fraction);
  w.value<std::uint8_t>(c.timing_known);
  w.value<std::uint8_t>(c.due.has_value());
  w.value(c.due.value_or(0.0));
  w.value(c.ticks);
  w.value<std::uint8_t>(c.last_tick.has_value());
  w.value(c.last_tick.value_or(0.0));
  for (bool flag : {c.fresh, c.must_read, c.ticked_now, c.missed_warned, c.duty_warned})
    w.value<std::uint8_t>(flag);
}

void read_clock(Reader& r, auto& c) {
  c.vr = static_cast<ValueRef>(r.value<std::uint64_t>("a clock's value reference"));
  c.interval = r.value<double>("a clock");
  c.shift = r.value<double>("a clock");
  c.counter = r.value<std::uint64_t>("a clock");
  c.resolution = r.value<std::uint64_t>("a clock");
  c.shift_counter = r.value<std::uint64_t>("a clock");
  c.fraction = r.value<std::uint8_t>("a clock") != 0;
  c.timing_known = r.value<std::uint8_t>("a clock") != 0;
  const bool has_due = r.value<std::uint8_t>("a clock") != 0;
  const double due = r.value<double>("a clock");
  c.due = has_due ? std::optional<double>(due) : std::nullopt;
  c.ticks = r.value<std::uint64_t>("a clock");
  const bool has_last = r.value<std::uint8_t>("a clock") != 0;
  const double last = r.value<double>("a clock");
  c.last_tick = has_last ? std::optional<double>(last) : std::nullopt;
  for (bool* flag : {&c.fresh, &c.must_read, &c.ticked_now, &c.missed_warned, &c.duty_warned})
    *flag = r.value<std::uint8_t>("a clock") != 0;
}

}  // namespace

bool Instance::check_state_capability(const char* function, bool serialize) const {
  const bool ok = serialize ? desc_.can_serialize_state() : desc_.can_get_and_set_state();
  if (!ok) {
    log(fmi3Error, "logStatusError",
        std::string(function) + ": " + (serialize ? "canSerializeFMUState" : "canGetAndSetFMUState") +
            " is false for this FMU → build it with the configuration key fmu_state=" +
            (serialize ? "serialize" : "get_set (or serialize)"));
    return false;
  }
  return check_mode(function, {Mode::instantiated, Mode::initialization, Mode::event, Mode::continuous_time,
                               Mode::terminated});
}

Instance::SavedState* Instance::known_state(const char* function, void* state) const {
  for (const auto& s : saved_states_)
    if (s.get() == state) return s.get();
  log(fmi3Error, "logStatusError",
      std::string(function) + ": the FMU state " + (state == nullptr ? std::string("NULL") : std::string("given")) +
          " was not made by this instance, or was freed → pass a state fmi3GetFMUState or fmi3DeserializeFMUState "
          "of this instance returned");
  return nullptr;
}

Instance::SavedState Instance::capture() const {
  SavedState s;
  s.mode = mode_;
  s.time = time_;
  s.start_time = start_time_;
  s.setup_start_time = setup_start_time_;
  s.f64 = f64_;
  s.boolean = bool_;
  s.clocks = clock_runs_;
  s.internal = model_->internal_state();
  return s;
}

fmi3Status Instance::get_fmu_state(void** state) {
  if (!check_state_capability("fmi3GetFMUState", false)) return fmi3Error;
  if (state == nullptr) {
    log(fmi3Error, "logStatusError", "fmi3GetFMUState: FMUState is NULL → pass the address of an fmi3FMUState");
    return fmi3Error;
  }
  if (*state != nullptr) {  // overwrite a state of ours in place
    SavedState* old = known_state("fmi3GetFMUState", *state);
    if (old == nullptr) return fmi3Error;
    *old = capture();
    return fmi3OK;
  }
  auto s = std::make_shared<SavedState>(capture());
  saved_states_.push_back(s);
  *state = s.get();
  return fmi3OK;
}

fmi3Status Instance::set_fmu_state(void* state) {
  if (!check_state_capability("fmi3SetFMUState", false)) return fmi3Error;
  const SavedState* s = known_state("fmi3SetFMUState", state);
  if (s == nullptr) return fmi3Error;
  if (s->internal.size() != model_->internal_state().size()) {
    log(fmi3Error, "logStatusError", "fmi3SetFMUState: the model's internal state has " +
                                         std::to_string(model_->internal_state().size()) + " numbers, the state " +
                                         std::to_string(s->internal.size()) + " → a model bug: report it");
    return fmi3Error;
  }
  mode_ = s->mode;
  time_ = s->time;
  start_time_ = s->start_time;
  setup_start_time_ = s->setup_start_time;
  f64_ = s->f64;
  bool_ = s->boolean;
  clock_runs_ = s->clocks;
  model_->set_internal_state(s->internal);
  settable_valid_ = false;  // the mode and the DAE switch may differ
  touch();                  // results and partials are recomputed from the restored values
  ++discrete_epoch_;        // and parameters and discrete variables reread, in any mode
  return fmi3OK;
}

fmi3Status Instance::free_fmu_state(void** state) {
  if (!check_state_capability("fmi3FreeFMUState", false)) return fmi3Error;
  if (state == nullptr || *state == nullptr) return fmi3OK;  // nothing to free
  for (auto it = saved_states_.begin(); it != saved_states_.end(); ++it)
    if (it->get() == *state) {
      saved_states_.erase(it);
      *state = nullptr;
      return fmi3OK;
    }
  return known_state("fmi3FreeFMUState", *state) ? fmi3OK : fmi3Error;
}

std::vector<std::uint8_t> Instance::encode(const SavedState& s) const {
  Writer w;
  w.bytes(kMagic, sizeof kMagic);
  const std::string& token = desc_.instantiation_token;
  w.value<std::uint64_t>(token.size());
  w.bytes(token.data(), token.size());
  w.value<std::uint64_t>(static_cast<std::uint64_t>(s.mode));
  w.value(s.time);
  w.value(s.start_time);
  w.value(s.setup_start_time);
  w.value<std::uint64_t>(s.f64.size());
  w.bytes(s.f64.data(), s.f64.size() * sizeof(double));
  w.value<std::uint64_t>(s.boolean.size());
  w.bytes(s.boolean.data(), s.boolean.size());
  w.value<std::uint64_t>(s.clocks.size());
  for (const ClockRun& c : s.clocks) write_clock(w, c);
  w.value<std::uint64_t>(s.internal.size());
  w.bytes(s.internal.data(), s.internal.size() * sizeof(double));
  return std::move(w.out);
}

Instance::SavedState Instance::decode(const std::uint8_t bytes[], size_t size) const {
  if (bytes == nullptr) throw std::invalid_argument("serializedState is NULL");
  Reader r(bytes, size);
  char magic[sizeof kMagic];
  r.bytes(magic, sizeof magic, "the magic number");
  if (std::memcmp(magic, kMagic, sizeof kMagic) != 0)
    throw std::invalid_argument("the bytes do not start with \"LSDAEFS1\": not a serialized state of a kit FMU");
  const std::string& token = desc_.instantiation_token;
  r.count("the instantiation token's length", token.size());
  std::string seen(token.size(), '\0');
  r.bytes(seen.data(), seen.size(), "the instantiation token");
  if (seen != token)
    throw std::invalid_argument("the state was serialized by another FMU (instantiation token \"" + seen +
                                "\", this FMU's is \"" + token + "\")");
  SavedState s;
  const auto mode = r.value<std::uint64_t>("the mode");
  if (mode > static_cast<std::uint64_t>(Mode::terminated))
    throw std::invalid_argument("the mode is " + std::to_string(mode) + ", not one of the modes 0.." +
                                std::to_string(static_cast<int>(Mode::terminated)));
  s.mode = static_cast<Mode>(mode);
  s.time = r.value<double>("the time");
  s.start_time = r.value<double>("the start time");
  s.setup_start_time = r.value<double>("the setup start time");
  s.f64.resize(r.count("the Float64 count", f64_.size()));
  r.bytes(s.f64.data(), s.f64.size() * sizeof(double), "the Float64 values");
  s.boolean.resize(r.count("the Boolean count", bool_.size()));
  r.bytes(s.boolean.data(), s.boolean.size(), "the Boolean values");
  s.clocks.resize(r.count("the clock count", clock_runs_.size()));
  for (ClockRun& c : s.clocks) read_clock(r, c);
  s.internal.resize(r.count("the model's internal state count", model_->internal_state().size()));
  r.bytes(s.internal.data(), s.internal.size() * sizeof(double), "the model's internal state");
  if (!r.done())
    throw std::invalid_argument(std::to_string(size) + " bytes are more than the state holds (a buffer of another "
                                "state?)");
  return s;
}

fmi3Status Instance::serialized_fmu_state_size(void* state, size_t* size) {
  if (!check_state_capability("fmi3SerializedFMUStateSize", true)) return fmi3Error;
  const SavedState* s = known_state("fmi3SerializedFMUStateSize", state);
  if (s == nullptr) return fmi3Error;
  if (size == nullptr) {
    log(fmi3Error, "logStatusError", "fmi3SerializedFMUStateSize: size is NULL → pass the address of a size_t");
    return fmi3Error;
  }
  *size = encode(*s).size();
  return fmi3OK;
}

fmi3Status Instance::serialize_fmu_state(void* state, std::uint8_t bytes[], size_t size) {
  if (!check_state_capability("fmi3SerializeFMUState", true)) return fmi3Error;
  const SavedState* s = known_state("fmi3SerializeFMUState", state);
  if (s == nullptr) return fmi3Error;
  const std::vector<std::uint8_t> out = encode(*s);
  if (bytes == nullptr || size != out.size()) {
    log(fmi3Error, "logStatusError", "fmi3SerializeFMUState: size is " + std::to_string(size) + ", the state takes " +
                                         std::to_string(out.size()) +
                                         " bytes → pass a buffer of the size fmi3SerializedFMUStateSize returns");
    return fmi3Error;
  }
  std::memcpy(bytes, out.data(), out.size());
  return fmi3OK;
}

fmi3Status Instance::deserialize_fmu_state(const std::uint8_t bytes[], size_t size, void** state) {
  if (!check_state_capability("fmi3DeserializeFMUState", true)) return fmi3Error;
  if (state == nullptr) {
    log(fmi3Error, "logStatusError", "fmi3DeserializeFMUState: FMUState is NULL → pass the address of an fmi3FMUState");
    return fmi3Error;
  }
  SavedState decoded;
  try {
    decoded = decode(bytes, size);
  } catch (const std::invalid_argument& e) {
    log(fmi3Error, "logStatusError", std::string("fmi3DeserializeFMUState: ") + e.what() +
                                         " → pass bytes fmi3SerializeFMUState of this FMU wrote");
    return fmi3Error;
  }
  auto s = std::make_shared<SavedState>(std::move(decoded));
  saved_states_.push_back(s);
  *state = s.get();
  return fmi3OK;
}

}  // namespace lsdae::kit
