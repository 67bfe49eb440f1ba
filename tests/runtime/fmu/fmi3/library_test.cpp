// tests/runtime/fmu/fmi3/library_test.cpp -- runtime/fmu/fmi3/library.cpp on a model binary.
#include "fmu/fmi3/library.h"

#include <gtest/gtest.h>

#include "catalog.h"
#include "lsdae/error.h"

namespace lsdae {
namespace {

std::filesystem::path binary(const std::string& fmu, const std::string& identifier) {
  return std::filesystem::path(LSDAE_FMU_DIR) / fmu / "binaries" / platform_tuple() / (identifier + ".so");
}

TEST(Fmi3Library, ResolvesEveryFunctionOfAKitFmu) {
  Fmi3Library lib(binary("Pendulum_dae_shapeA", "Pendulum"), "Pendulum_dae_shapeA.fmu");
  EXPECT_EQ(lib.version, "3.0");
  EXPECT_TRUE(lib.missing_optional_functions().empty()) << lib.missing_optional_functions().front();
  EXPECT_NE(lib.fn.GetDirectionalDerivative, nullptr);
  EXPECT_NE(lib.fn.EnterConfigurationMode, nullptr);
}

TEST(Fmi3Library, NamesAMissingBinaryAndThePlatform) {
  try {
    Fmi3Library lib(binary("Pendulum_dae_shapeA", "NoSuchModel"), "Pendulum_dae_shapeA.fmu");
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::binary);
    EXPECT_NE(std::string(e.what()).find("binaries/x86_64-linux/NoSuchModel.so is missing"), std::string::npos) << e.what();
  }
}

TEST(Fmi3Library, ReportsAFileThatIsNotALibrary) {
  std::filesystem::path fake = std::filesystem::temp_directory_path() / ("lsdae-fake-" + std::to_string(::getpid()) + ".so");
  std::ofstream(fake) << "not an ELF file";
  try {
    Fmi3Library lib(fake, "fake.fmu");
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::binary);
    EXPECT_NE(std::string(e.what()).find("fake.fmu: cannot load"), std::string::npos) << e.what();
  }
  std::filesystem::remove(fake);
}

}  // namespace
}  // namespace lsdae
