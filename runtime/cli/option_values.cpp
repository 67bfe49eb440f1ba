// runtime/cli/option_values.cpp -- see option_values.h.
#include "cli/option_values.h"

namespace lsdae::cli {

CLI::Validator real_value(const RealRange& range) {
  return CLI::Validator(
      [range](std::string& text) -> std::string {
        const auto refusal = run::refuse_real_text(text, range);
        return refusal ? refusal->after(quoted_value(text)) : std::string();
      },
      "", "real");
}

CLI::Validator count_value(std::int64_t low, std::int64_t high, const std::string& meaning,
                           const std::string& example) {
  return CLI::Validator(
      [=](std::string& text) -> std::string {
        const std::string seen = quoted_value(text);
        const auto refusal = run::refuse_count_text(text, low, high, meaning, example);
        return refusal ? refusal->after(seen) : std::string();
      },
      "", "count");
}

CLI::Validator one_of(const std::vector<std::string>& words) {
  std::string list;
  for (const auto& w : words) list += (list.empty() ? "" : ", ") + w;
  return CLI::Validator(
      [words, list](std::string& text) -> std::string {
        const auto refusal = run::refuse_choice(text, words, list);
        return refusal ? refusal->after(quoted_value(text)) : std::string();
      },
      "", "one of");
}

}  // namespace lsdae::cli
