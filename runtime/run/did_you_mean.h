// runtime/run/did_you_mean.h -- "did you mean …?" for a mistyped command or
// option name.
//
// Algorithm: the optimal-string-alignment distance (Levenshtein distance plus
// the transposition of two adjacent characters, each edit costing 1; Damerau,
// CACM 7(3), 1964), computed with the usual two-row dynamic programme in
// O(|a|·|b|) time. A candidate is suggested when its distance to the word is
// at most max(1, ⌈length/3⌉) (so one or two typos in a short word, more in a
// long one) or when the word is a prefix of it (`--out` → `--output`,
// `--output-interval`, `--output-vars`). Leading dashes take part like any
// other character, so `-stop` is one edit from `--stop`.
//
// Contract: closest_names returns the candidates at the smallest distance
// found (ties kept, in the order given; a word that is a prefix of several
// candidates returns all of them), or nothing when none is close enough.
// Comparison is case-sensitive: each changed letter is one edit.
#ifndef LSDAE_RUNTIME_RUN_DID_YOU_MEAN_H
#define LSDAE_RUNTIME_RUN_DID_YOU_MEAN_H

#include <cstddef>
#include <string>
#include <vector>

namespace lsdae::run {

// Optimal-string-alignment distance between `a` and `b`.
std::size_t edit_distance(const std::string& a, const std::string& b);

// The candidates closest to `word` (see above); empty when none is close.
std::vector<std::string> closest_names(const std::string& word, const std::vector<std::string>& candidates);

// "did you mean `x`?" / "did you mean `x` or `y`?" / "did you mean one of `x`,
// `y`, `z`?" / "" when nothing is close.
std::string did_you_mean(const std::string& word, const std::vector<std::string>& candidates);

}  // namespace lsdae::run

#endif  // LSDAE_RUNTIME_RUN_DID_YOU_MEAN_H
