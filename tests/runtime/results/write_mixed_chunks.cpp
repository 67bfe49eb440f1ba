// tests/runtime/results/write_mixed_chunks.cpp -- writes the HDF5 file of
// mixed_chunks.h to the path given, for the Python readers' tests.
#include <exception>
#include <iostream>

#include "mixed_chunks.h"

int main(int argc, char** argv) {
  if (argc != 2) {
    std::cerr << "usage: write_mixed_chunks FILE.h5\n";
    return 2;
  }
  try {
    for (const auto& [name, count] : lsdae::results::mixed_chunks::write(argv[1]))
      std::cout << name << ' ' << count << '\n';
  } catch (const std::exception& e) {
    std::cerr << "write_mixed_chunks: " << e.what() << '\n';
    return 1;
  }
  return 0;
}
