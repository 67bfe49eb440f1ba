// tests/runtime/simulation/optimized_nvector_test.cpp -- the one fused
// operation of runtime/simulation/ida/optimized_nvector.h: N_VLinearCombination
// in one pass gives, bit for bit, what SUNDIALS' generic fallback gives over
// the package's own serial operations (N_VScale, then N_VLinearSum(c_i, X_i,
// 1, z, z)), also where z is one of the combined vectors (then the fallback
// reads the running sum back) and for more vectors than one pass takes.
#include <gtest/gtest.h>

#include <nvector/nvector_serial.h>
#include <sundials/sundials_context.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <vector>

#include "simulation/ida/optimized_nvector.h"

namespace {

struct Vectors {
  SUNContext ctx = nullptr;
  std::vector<N_Vector> v;
  Vectors(int count, sunindextype n) {
    SUNContext_Create(nullptr, &ctx);
    for (int k = 0; k < count; ++k) {
      v.push_back(N_VNew_Serial(n, ctx));
      double* d = N_VGetArrayPointer(v.back());
      for (sunindextype i = 0; i < n; ++i) d[i] = std::sin(0.37 * static_cast<double>(i * (k + 3)) + k) * (k + 1.5);
    }
  }
  ~Vectors() {
    for (N_Vector x : v) N_VDestroy(x);
    SUNContext_Free(&ctx);
  }
};

// SUNDIALS' fallback for a vector without the fused operation.
void fallback(int nvec, double* c, N_Vector* x, N_Vector z) {
  N_VScale(c[0], x[0], z);
  for (int i = 1; i < nvec; ++i) N_VLinearSum(c[i], x[i], 1.0, z, z);
}

bool same_bits(N_Vector a, N_Vector b) {
  return std::memcmp(N_VGetArrayPointer(a), N_VGetArrayPointer(b),
                     sizeof(double) * static_cast<std::size_t>(N_VGetLength(a))) == 0;
}

TEST(OptimizedNVector, LinearCombinationIsTheFallbacksArithmeticBitwise) {
  const sunindextype n = 1001;
  for (int nvec : {1, 2, 5, 8, 11}) {
    SCOPED_TRACE("nvec " + std::to_string(nvec));
    std::vector<double> c;
    for (int k = 0; k < nvec; ++k) c.push_back(k == 1 ? 1.0 : (k == 2 ? -1.0 : 0.1 + 1.0 / (k + 3)));
    for (int alias : {-1, 0, nvec - 1}) {  // z apart, z = X[0], z = the last X
      SCOPED_TRACE("alias " + std::to_string(alias));
      Vectors plain(nvec + 1, n), fused(nvec + 1, n);
      ASSERT_EQ(lsdae_use_optimized_ops(fused.v[0]), 0);
      for (std::size_t k = 1; k < fused.v.size(); ++k) ASSERT_EQ(lsdae_use_optimized_ops(fused.v[k]), 0);
      ASSERT_EQ(plain.v[0]->ops->nvlinearcombination, nullptr) << "the package's serial vector has no fused operation";
      ASSERT_NE(fused.v[0]->ops->nvlinearcombination, nullptr);
      const std::size_t at = static_cast<std::size_t>(alias < 0 ? nvec : alias);
      N_Vector zp = plain.v[at];
      N_Vector zf = fused.v[at];
      fallback(nvec, c.data(), plain.v.data(), zp);
      ASSERT_EQ(N_VLinearCombination(nvec, c.data(), fused.v.data(), zf), 0);
      EXPECT_TRUE(same_bits(zp, zf));
    }
  }
}

}  // namespace
