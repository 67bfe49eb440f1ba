// runtime/cli/limits_option.h -- `--max-unpacked-size BYTES`, shared by the
// commands that open an FMU: lowers ArchiveLimits' caps on inflated bytes (in
// total and per member) so a suspect archive can be opened with a tight
// budget, and so the tests can exercise the zip-bomb guard cheaply.
#ifndef LSDAE_RUNTIME_CLI_LIMITS_OPTION_H
#define LSDAE_RUNTIME_CLI_LIMITS_OPTION_H

#include <CLI/CLI.hpp>

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <string>

#include "lsdae/fmu.h"

namespace lsdae::cli {

// Registers the option in the "Advanced" group; `bytes` stays 0 when it is not given.
inline CLI::Option* add_max_unpacked_size_option(CLI::App& app, std::uint64_t& bytes) {
  CLI::Validator positive(
      [](std::string& text) -> std::string {
        std::uint64_t value = 0;
        auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
        if (ec != std::errc() || end != text.data() + text.size() || value == 0)
          return "\"" + text + "\" is not a positive whole number of bytes → give e.g. 1048576 for 1 MiB";
        return {};
      },
      "", "positive");
  return app
      .add_option("--max-unpacked-size", bytes,
                  "Refuse an archive whose members inflate to more than BYTES, in total or in one member "
                  "(default: 8 GiB in total, 4 GiB per member)")
      ->type_name("BYTES")
      ->check(positive)
      ->group("Advanced");
}

// Applies a given --max-unpacked-size to `options`.
inline void apply_max_unpacked_size(std::uint64_t bytes, OpenOptions& options) {
  if (bytes == 0) return;
  options.limits.max_total_bytes = bytes;
  options.limits.max_entry_bytes = std::min(options.limits.max_entry_bytes, bytes);
}

}  // namespace lsdae::cli

#endif  // LSDAE_RUNTIME_CLI_LIMITS_OPTION_H
