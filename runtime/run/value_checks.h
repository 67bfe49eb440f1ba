// runtime/run/value_checks.h -- one option value read strictly, and what is
// wrong with it, in words every front door shares.
//
// The checks behind the options table (options.h) and behind the CLI's own
// options (cli/option_values.h wraps them as CLI11 validators):
//
//   parse_real(text)        a decimal floating-point number (std::from_chars,
//                           general format: "1e-6", "0.5", "+3"; no hex, no
//                           "inf"/"nan", nothing after the number);
//   refuse_real_text        text → the refusal of a real value, or nothing;
//   refuse_real             a number a program gave (C, Python) → the same;
//   refuse_count_text       a whole number lo ≤ n ≤ hi, written with digits
//                           or as an exactly integral decimal ("1e6"); the
//                           text is rewritten to its digits;
//   refuse_count            a whole number a program gave → the same;
//   refuse_choice           one of the words (did_you_mean.h for a hint).
//
// A Refusal is "<problem>: <rule>" and what to do; the caller puts the value
// as its front door shows it in front (quoted_value for a command line, the
// number or the repr for C and Python) and the key where its messages name
// it, so the same bad value reads with the same meaning everywhere:
//   --rtol: "0" is out of range: the relative tolerance must be from 1e-15 to 1 → e.g. --rtol 1e-6
//   lsdae_open: options.rtol = 0 is out of range: the relative tolerance must be from 1e-15 to 1 → e.g. options.rtol = 1e-6
//   rtol=0 is out of range: the relative tolerance must be from 1e-15 to 1 → e.g. rtol=1e-6
// Every function validates its input and never throws (but bad_alloc).
#ifndef LSDAE_RUNTIME_RUN_VALUE_CHECKS_H
#define LSDAE_RUNTIME_RUN_VALUE_CHECKS_H

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace lsdae::run {

// What a real-valued option accepts. `low`/`high` may be ±infinity (no bound);
// the value itself must always be finite.
struct RealRange {
  double low, high;
  bool low_inclusive = true, high_inclusive = true;
  std::string meaning;  // "the relative tolerance"
  std::string example;  // "--rtol 1e-6": what "→ e.g." shows, in the caller's spelling
};

// Why a value was refused: `what` follows the value seen ("is out of range:
// the relative tolerance must be from 1e-15 to 1"), `todo` follows the arrow
// ("e.g. --rtol 1e-6", "did you mean `fd`?").
struct Refusal {
  std::string what, todo;
  // "<seen> <what> → <todo>"
  std::string after(const std::string& seen) const { return seen + " " + what + " → " + todo; }
};

// The whole text as a double; nullopt when it is not a decimal number or has
// anything after it. `out_of_range` is set for 1e400 and the like.
std::optional<double> parse_real(const std::string& text, bool& out_of_range);

// The value as shown in a message: quoted, at most 80 characters ("…" when cut).
std::string quoted_value(const std::string& text);

// "from 1e-15 to 1", "greater than 0", "at least 0", "a finite number", ...
std::string describe_range(const RealRange& range);

std::optional<Refusal> refuse_real_text(const std::string& text, const RealRange& range);
std::optional<Refusal> refuse_real(double value, const RealRange& range);

// `text` becomes the number's digits when it is accepted ("1e6" → "1000000").
std::optional<Refusal> refuse_count_text(std::string& text, std::int64_t low, std::int64_t high,
                                         const std::string& meaning, const std::string& example);
std::optional<Refusal> refuse_count(std::int64_t value, std::int64_t low, std::int64_t high,
                                    const std::string& meaning, const std::string& example);
// A number a program gave where a whole number belongs (2.5, or 2.0 from a
// language that tells floats from integers).
Refusal not_a_whole_number(std::int64_t low, std::int64_t high, const std::string& meaning,
                           const std::string& example);

// `words`: what is accepted (and suggested from); `shown`: the words as the
// message lists them ("auto, fd, directional, check").
std::optional<Refusal> refuse_choice(const std::string& word, const std::vector<std::string>& words,
                                     const std::string& shown);

}  // namespace lsdae::run

#endif  // LSDAE_RUNTIME_RUN_VALUE_CHECKS_H
