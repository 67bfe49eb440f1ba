// models/psse/system/slot_work.h -- what one evaluation of the System reads
// and writes per slot, in two dense structures laid out in slot order:
//
//   SlotHot   one cache line per slot (64 bytes, an array of them): the
//             component, its shape and widened limits, the flags, the bus, and
//             where the slot's block lies in the arena;
//   arena     one allocation holding every slot's block, one after the other
//             in slot order: value references (SlotHot::ref: the knowns in
//             frame order, parameters, modes, derivatives, fully implicit
//             residuals, algebraic residuals, indicators, each limiter's kind),
//             then the doubles (knowns, parameters, outputs, indicator shifts,
//             each limiter's indicator after the last event), the limiter
//             records and the limiter modes.
//
// Why (docs/performance/psse-activsg2000-evaluation.md, issue 31): compute()
// is memory-bound; per slot it read the slot's entry (800 bytes, four lines),
// the ComponentSlot (a heap object of its own), and seven heap blocks (the
// refs, knowns, outputs, parameters, modes, records, shifts), each a miss
// that the hardware prefetcher could not foresee. Here an evaluation walks
// two arrays front to back; only the component object (its vtable and
// data) and the gathered values stay where they are. A layout only: the same
// values, the same operations in the same order.
//
// Contract: layout() allocates once; the blocks never move afterwards (an
// event, a restored FMU state or a new evaluation writes values into them,
// never resizes), so the pointers in SlotHot stay valid for the System's
// lifetime. Every double starts at 0.0, every mode at kModeFree, every
// record empty, every value reference at kit::kNoValueRef.
// Cost: layout() O(total size); the accessors a few adds.
#ifndef LSDAE_MODELS_PSSE_SYSTEM_SLOT_WORK_H
#define LSDAE_MODELS_PSSE_SYSTEM_SLOT_WORK_H

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "kit/model.h"
#include "psse/core/component.h"
#include "psse/core/frame.h"

namespace lsdae::psse {

struct alignas(64) SlotHot {
  const Component* component = nullptr;
  const double* widen = nullptr;  // ComponentSlot::widen_data() (null: none widened)
  kit::ValueRef* ref = nullptr;   // the slot's value references (layout above)
  double* known = nullptr;        // the slot's doubles: known | param | out | shift | last; then records, modes
  FrameShape shape;
  std::uint32_t rx = 0;           // fully implicit residuals: shape.states, else 0
  std::uint32_t bus = 0;          // network bus index
  bool network_device = false;    // InitStage::network_device: its injection enters the bus
  bool frozen = false;            // a tripped unit (its states and algebraics held)
  // Whether some indicator shift is not +0.0 (note_shifts()): the indicators
  // read the shifts only then, and add the literal +0.0 otherwise (the same
  // bits).
  bool shifted = false;

  std::uint32_t known_count() const { return static_cast<std::uint32_t>(shape.known_count()); }
  std::uint32_t limiters() const { return static_cast<std::uint32_t>(shape.limiters); }
  // Value references.
  const kit::ValueRef* known_vr() const { return ref; }
  const kit::ValueRef* param_vr() const { return ref + known_count(); }
  const kit::ValueRef* mode_vr() const { return param_vr() + shape.parameters; }
  const kit::ValueRef* der_vr() const { return mode_vr() + shape.limiters; }
  const kit::ValueRef* rx_vr() const { return der_vr() + shape.states; }
  const kit::ValueRef* g_vr() const { return rx_vr() + rx; }
  const kit::ValueRef* ind_vr() const { return g_vr() + shape.algebraics; }
  LimiterKind kind(std::size_t l) const {
    return static_cast<LimiterKind>(ind_vr()[static_cast<std::size_t>(shape.limiters) + l]);
  }
  // Work space.
  double* param() const { return known + known_count(); }
  double* out() const { return param() + shape.parameters; }
  double* shift() const { return out() + shape.output_count(); }
  // Each limiter's indicator after the last event (update_discrete: the
  // reference for the next crossing).
  double* last() const { return shift() + shape.limiters; }
  LimiterRecord* record() const { return reinterpret_cast<LimiterRecord*>(last() + shape.limiters); }
  int* mode() const { return reinterpret_cast<int*>(record() + shape.limiters); }
  // Sets `shifted` from the shifts: -0.0 counts (its bits differ from +0.0).
  void note_shifts();
};
static_assert(sizeof(SlotHot) == 64, "SlotHot: one cache line per slot");

// How many value references a slot's block holds (the layout above).
std::size_t slot_ref_count(const FrameShape& shape, std::uint32_t rx);

// The dense array and the arena (the contract above).
class SlotWork {
 public:
  // One block per shape, in order; `implicit`: fully implicit form (rx).
  // Replaces any earlier layout (every pointer into it is then invalid).
  void layout(const std::vector<FrameShape>& shapes, bool implicit);
  std::size_t size() const { return hot_.size(); }
  SlotHot& operator[](std::size_t k) { return hot_[k]; }
  const SlotHot& operator[](std::size_t k) const { return hot_[k]; }
  // The arena's extent, for tests: every block lies in [begin, begin + bytes).
  const std::byte* arena_begin() const { return arena_.get(); }
  std::size_t arena_bytes() const { return bytes_; }

 private:
  std::vector<SlotHot> hot_;
  std::unique_ptr<std::byte[]> arena_;
  std::size_t bytes_ = 0;
};

}  // namespace lsdae::psse

#endif  // LSDAE_MODELS_PSSE_SYSTEM_SLOT_WORK_H
