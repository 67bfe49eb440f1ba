// runtime/fuzz/fuzz_cli.cpp -- libFuzzer target for the `lsdae` command-line
// parsing: lsdae::cli::run(argc, argv, /*run_command=*/false) from
// runtime/cli/program.cpp (the program's main() is compose/lsdae_main.cpp). It
// builds the whole CLI11 app (every subcommand and option, with their
// validators), parses, and returns before running a command, so no FMU is
// opened and no file is written.
//
// Input layout: the arguments after "lsdae", separated by NUL bytes (the
// seeds in runtime/fuzz/seeds_cli/ are such files; an input without a NUL is
// one argument). At most 64 arguments are used.
// A finding is a crash, a sanitizer report, a leak, a time-out, any
// exception escaping run() (it catches CLI11's parse errors and maps them to
// the usage exit code), or an exit code other than 0 (parsed) and the usage
// code (2).
// Run with -close_fd_mask=3: CLI11 prints help and errors on stdout/stderr.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "cli/commands.h"
#include "lsdae/error.h"
#include "lsdae/log.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::vector<std::string> args{"lsdae"};
  std::string current;
  for (std::size_t i = 0; i < size && args.size() < 64; ++i) {
    if (data[i] == 0) {
      args.push_back(current);
      current.clear();
    } else {
      current += static_cast<char>(data[i]);
    }
  }
  if (!current.empty() && args.size() < 64) args.push_back(current);
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  const int code = lsdae::cli::run(static_cast<int>(args.size()), argv.data(), false);
  // --verbose/--debug change the process-wide log threshold: put it back.
  lsdae::Logger::instance().set_threshold(lsdae::LogLevel::warning);
  if (code != 0 && code != lsdae::exit_code(lsdae::ErrorKind::usage)) {
    std::fprintf(stderr, "fuzz_cli: parsing returned exit code %d\n", code);
    std::abort();
  }
  return 0;
}
