// models/psse/system/slot_work.cpp -- see slot_work.h.
#include "psse/system/slot_work.h"

#include <cmath>
#include <memory>

namespace lsdae::psse {

namespace {

// Bytes of `count` objects of `T`, rounded up to 8 (every part of a block
// starts 8-byte aligned: doubles, records and the next block).
template <class T>
std::size_t slot_work_bytes(std::size_t count) {
  return (count * sizeof(T) + 7) / 8 * 8;
}

struct SlotWorkPart {
  std::size_t refs, doubles, records, modes;
  std::size_t bytes() const {
    return slot_work_bytes<kit::ValueRef>(refs) + slot_work_bytes<double>(doubles) +
           slot_work_bytes<LimiterRecord>(records) + slot_work_bytes<int>(modes);
  }
};

SlotWorkPart slot_work_part(const FrameShape& sh, std::uint32_t rx) {
  const auto nl = static_cast<std::size_t>(sh.limiters);
  return {slot_ref_count(sh, rx),
          static_cast<std::size_t>(sh.known_count() + sh.parameters + sh.output_count()) + 2 * nl, nl, nl};
}

}  // namespace

std::size_t slot_ref_count(const FrameShape& sh, std::uint32_t rx) {
  // known, param, mode, der, rx, g, indicators, kinds
  return static_cast<std::size_t>(sh.known_count() + sh.parameters + sh.limiters + sh.states) + rx +
         static_cast<std::size_t>(sh.algebraics + 2 * sh.limiters);
}

void SlotHot::note_shifts() {
  shifted = false;
  const double* s = shift();
  for (int l = 0; l < shape.limiters; ++l) shifted = shifted || s[l] != 0.0 || std::signbit(s[l]);
}

void SlotWork::layout(const std::vector<FrameShape>& shapes, bool implicit) {
  hot_.assign(shapes.size(), SlotHot{});
  bytes_ = 0;
  for (const FrameShape& sh : shapes)
    bytes_ += slot_work_part(sh, implicit ? static_cast<std::uint32_t>(sh.states) : 0u).bytes();
  // operator new[] aligns to at least 16 bytes; every part needs 8.
  arena_ = std::make_unique<std::byte[]>(bytes_);
  std::byte* at = arena_.get();
  for (std::size_t k = 0; k < shapes.size(); ++k) {
    SlotHot& h = hot_[k];
    h.shape = shapes[k];
    h.rx = implicit ? static_cast<std::uint32_t>(h.shape.states) : 0u;
    const SlotWorkPart part = slot_work_part(h.shape, h.rx);
    h.ref = std::uninitialized_fill_n(reinterpret_cast<kit::ValueRef*>(at), part.refs, kit::kNoValueRef) - part.refs;
    at += slot_work_bytes<kit::ValueRef>(part.refs);
    h.known = std::uninitialized_fill_n(reinterpret_cast<double*>(at), part.doubles, 0.0) - part.doubles;
    at += slot_work_bytes<double>(part.doubles);
    std::uninitialized_value_construct_n(reinterpret_cast<LimiterRecord*>(at), part.records);
    at += slot_work_bytes<LimiterRecord>(part.records);
    std::uninitialized_fill_n(reinterpret_cast<int*>(at), part.modes, kModeFree);
    at += slot_work_bytes<int>(part.modes);
  }
}

}  // namespace lsdae::psse
