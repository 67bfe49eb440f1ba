// tests/models/psse/slot_work_test.cpp -- the System's per-slot work space
// (models/psse/system/slot_work.h): one cache line per slot, the blocks in
// one arena in slot order, each part where the accessors say, no two parts
// overlapping, the initial values, and the indicator-shift flag. The
// System's evaluations on it (bitwise those of a full compute(), after an
// event and a restored state) are tested in indicators_test.cpp.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <vector>

#include "psse/system/slot_work.h"

namespace lsdae::psse {
namespace {

// Shapes as the ACTIVSg2000 models have them: a machine (no limiter), an
// exciter (odd counts: the ints and value references need padding), a load
// with one switch, and a component with nothing but its bus voltage.
std::vector<FrameShape> slot_work_shapes() {
  FrameShape machine{6, 3, 2, 14, 0};
  FrameShape exciter{5, 1, 3, 17, 3};
  FrameShape load{0, 1, 0, 6, 1};
  FrameShape bare{0, 0, 0, 0, 0};
  return {machine, exciter, load, bare, exciter};
}

const std::byte* slot_work_addr(const void* p) { return static_cast<const std::byte*>(p); }

TEST(SlotWork, OneCacheLinePerSlot) {
  EXPECT_EQ(sizeof(SlotHot), 64u);
  EXPECT_EQ(alignof(SlotHot), 64u);
}

TEST(SlotWork, BlocksFollowEachOtherInSlotOrderWithTheirPartsInside) {
  for (const bool implicit : {false, true}) {
    SlotWork work;
    const std::vector<FrameShape> shapes = slot_work_shapes();
    work.layout(shapes, implicit);
    ASSERT_EQ(work.size(), shapes.size());
    const std::byte* at = work.arena_begin();
    const std::byte* end = at + work.arena_bytes();
    for (std::size_t k = 0; k < work.size(); ++k) {
      const SlotHot& h = work[k];
      const FrameShape& sh = shapes[k];
      EXPECT_EQ(h.rx, implicit ? static_cast<std::uint32_t>(sh.states) : 0u);
      // Value references first, where the previous block ended.
      EXPECT_EQ(slot_work_addr(h.ref), at) << k;
      const std::size_t refs = slot_ref_count(sh, h.rx);
      EXPECT_EQ(refs, static_cast<std::size_t>(sh.known_count() + sh.parameters + 3 * sh.limiters + sh.states +
                                               sh.algebraics) +
                          h.rx);
      // The kinds end the references: the last of them is ind_vr()[2 * limiters - 1].
      EXPECT_EQ(h.ind_vr() + 2 * sh.limiters, h.ref + refs) << k;
      const std::byte* doubles = slot_work_addr(h.ref) + (refs * sizeof(kit::ValueRef) + 7) / 8 * 8;
      EXPECT_EQ(slot_work_addr(h.known), doubles) << k;
      EXPECT_EQ(h.param(), h.known + sh.known_count());
      EXPECT_EQ(h.out(), h.param() + sh.parameters);
      EXPECT_EQ(h.shift(), h.out() + sh.output_count());
      EXPECT_EQ(h.last(), h.shift() + sh.limiters);
      EXPECT_EQ(slot_work_addr(h.record()), slot_work_addr(h.last() + sh.limiters));
      EXPECT_EQ(slot_work_addr(h.mode()), slot_work_addr(h.record() + sh.limiters));
      EXPECT_EQ(reinterpret_cast<std::uintptr_t>(h.known) % alignof(double), 0u);
      EXPECT_EQ(reinterpret_cast<std::uintptr_t>(h.record()) % alignof(LimiterRecord), 0u);
      at = slot_work_addr(h.mode()) + (static_cast<std::size_t>(sh.limiters) * sizeof(int) + 7) / 8 * 8;
      EXPECT_LE(at, end) << k;
      // The initial values.
      for (std::size_t r = 0; r < refs; ++r) EXPECT_EQ(h.ref[r], kit::kNoValueRef);
      for (double* d = h.known; d < h.last() + sh.limiters; ++d) EXPECT_EQ(*d, 0.0);
      for (int l = 0; l < sh.limiters; ++l) {
        EXPECT_FALSE(h.record()[l].written);
        EXPECT_EQ(h.mode()[l], kModeFree);
      }
      EXPECT_FALSE(h.frozen);
      EXPECT_FALSE(h.shifted);
    }
    EXPECT_EQ(at, end) << "the blocks fill the arena";
  }
}

// Every part of every block written through the accessors, slot by slot:
// each keeps its own values (no part overlaps another, no block its
// neighbour).
TEST(SlotWork, PartsDoNotOverlap) {
  SlotWork work;
  work.layout(slot_work_shapes(), true);
  auto fill = [&](std::size_t k) {
    SlotHot& h = work[k];
    const FrameShape& sh = h.shape;
    const auto refs = slot_ref_count(sh, h.rx);
    for (std::size_t r = 0; r < refs; ++r) h.ref[r] = static_cast<kit::ValueRef>(1000 * k + r);
    for (int i = 0; i < sh.known_count(); ++i) h.known[i] = 1.0 + static_cast<double>(k);
    for (int i = 0; i < sh.parameters; ++i) h.param()[i] = 2.0 + static_cast<double>(k);
    for (int i = 0; i < sh.output_count(); ++i) h.out()[i] = 3.0 + static_cast<double>(k);
    for (int l = 0; l < sh.limiters; ++l) {
      h.shift()[l] = 4.0 + static_cast<double>(k);
      h.last()[l] = 6.0 + static_cast<double>(k);
      h.record()[l] = LimiterRecord{5.0 + static_cast<double>(k), 0.0, 0.0, 0.0, true};
      h.mode()[l] = -1;
    }
  };
  for (std::size_t k = 0; k < work.size(); ++k) fill(k);
  for (std::size_t k = 0; k < work.size(); ++k) {
    const SlotHot& h = work[k];
    const FrameShape& sh = h.shape;
    const auto d = static_cast<double>(k);
    for (std::size_t r = 0; r < slot_ref_count(sh, h.rx); ++r) EXPECT_EQ(h.ref[r], 1000 * k + r) << k;
    for (int i = 0; i < sh.known_count(); ++i) EXPECT_EQ(h.known[i], 1.0 + d) << k;
    for (int i = 0; i < sh.parameters; ++i) EXPECT_EQ(h.param()[i], 2.0 + d) << k;
    for (int i = 0; i < sh.output_count(); ++i) EXPECT_EQ(h.out()[i], 3.0 + d) << k;
    for (int l = 0; l < sh.limiters; ++l) {
      EXPECT_EQ(h.shift()[l], 4.0 + d) << k;
      EXPECT_EQ(h.last()[l], 6.0 + d) << k;
      EXPECT_EQ(h.record()[l].u, 5.0 + d) << k;
      EXPECT_TRUE(h.record()[l].written) << k;
      EXPECT_EQ(h.mode()[l], -1) << k;
    }
  }
}

// The indicators read a slot's shifts only when note_shifts() found one that
// is not +0.0; -0.0 counts (its bits differ), and a flag left over from an
// earlier event is cleared.
TEST(SlotWork, ShiftFlagSaysWhetherAnyShiftDiffersFromPositiveZero) {
  SlotWork work;
  work.layout({FrameShape{5, 1, 3, 17, 3}}, false);
  SlotHot& h = work[0];
  double* shift = h.shift();
  h.note_shifts();
  EXPECT_FALSE(h.shifted);
  shift[1] = 1e-8;
  h.note_shifts();
  EXPECT_TRUE(h.shifted);
  shift[1] = 0.0;
  shift[2] = -0.0;
  h.note_shifts();
  EXPECT_TRUE(h.shifted);
  shift[2] = 0.0;
  h.note_shifts();
  EXPECT_FALSE(h.shifted);
}

}  // namespace
}  // namespace lsdae::psse
