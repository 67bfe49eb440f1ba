// structure/coloring.cpp -- see coloring.h.
#include "structure/coloring.h"

#include <algorithm>
#include <numeric>

#include "structure/messages.h"

namespace lsdae::structure {

const char* to_string(ColumnOrdering ordering) noexcept {
  switch (ordering) {
    case ColumnOrdering::natural: return "natural";
    case ColumnOrdering::largest_first: return "largest-first";
    case ColumnOrdering::smallest_last: return "smallest-last";
    case ColumnOrdering::incidence_degree: return "incidence-degree";
  }
  return "?";
}

namespace {

// Calls f(neighbour) once for each distinct neighbour of column c (c excluded).
// `mark` has one entry per column; `stamp` must be unique per call.
template <class F>
void for_each_neighbour(const Pattern& p, std::size_t c, std::vector<std::size_t>& mark, std::size_t stamp, F f) {
  mark[c] = stamp;
  for (const std::size_t r : p.column(c))
    for (const std::size_t other : p.row(r)) {
      if (mark[other] == stamp) continue;
      mark[other] = stamp;
      f(other);
    }
}

// Doubly linked bucket lists keyed by an integer in [0, cols).
class Buckets {
 public:
  explicit Buckets(std::size_t n) : head_(n + 1, no_index), next_(n, no_index), prev_(n, no_index), key_(n, 0) {}
  void push_front(std::size_t v, std::size_t key) {
    key_[v] = key;
    prev_[v] = no_index;
    next_[v] = head_[key];
    if (head_[key] != no_index) prev_[head_[key]] = v;
    head_[key] = v;
  }
  void remove(std::size_t v) {
    if (prev_[v] != no_index) next_[prev_[v]] = next_[v];
    else head_[key_[v]] = next_[v];
    if (next_[v] != no_index) prev_[next_[v]] = prev_[v];
  }
  void move(std::size_t v, std::size_t key) {
    remove(v);
    push_front(v, key);
  }
  std::size_t head(std::size_t key) const { return head_[key]; }
  std::size_t key(std::size_t v) const { return key_[v]; }

 private:
  std::vector<std::size_t> head_, next_, prev_, key_;
};

std::vector<std::size_t> largest_first(const std::vector<std::size_t>& degree) {
  std::vector<std::size_t> order(degree.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return degree[a] > degree[b]; });
  return order;
}

std::vector<std::size_t> smallest_last(const Pattern& p, const std::vector<std::size_t>& degree) {
  const std::size_t n = p.cols();
  Buckets buckets(n);
  const auto lf = largest_first(degree);
  for (std::size_t k = n; k-- > 0;) buckets.push_front(lf[k], degree[lf[k]]);
  std::vector<std::size_t> removed_order;
  removed_order.reserve(n);
  std::vector<bool> removed(n, false);
  std::vector<std::size_t> mark(n, no_index);
  std::size_t low = 0;
  for (std::size_t step = 0; step < n; ++step) {
    while (buckets.head(low) == no_index) ++low;
    const std::size_t v = buckets.head(low);
    buckets.remove(v);
    removed[v] = true;
    removed_order.push_back(v);
    for_each_neighbour(p, v, mark, step, [&](std::size_t w) {
      if (removed[w]) return;
      const std::size_t key = buckets.key(w) - 1;
      buckets.move(w, key);
      low = std::min(low, key);
    });
  }
  std::reverse(removed_order.begin(), removed_order.end());
  return removed_order;
}

std::vector<std::size_t> incidence_degree(const Pattern& p, const std::vector<std::size_t>& degree) {
  const std::size_t n = p.cols();
  Buckets buckets(n);
  const auto lf = largest_first(degree);
  for (std::size_t k = n; k-- > 0;) buckets.push_front(lf[k], 0);
  std::vector<std::size_t> order;
  order.reserve(n);
  std::vector<bool> ordered(n, false);
  std::vector<std::size_t> mark(n, no_index);
  std::size_t high = 0;
  for (std::size_t step = 0; step < n; ++step) {
    while (buckets.head(high) == no_index) --high;
    const std::size_t v = buckets.head(high);
    buckets.remove(v);
    ordered[v] = true;
    order.push_back(v);
    for_each_neighbour(p, v, mark, step, [&](std::size_t w) {
      if (ordered[w]) return;
      const std::size_t key = buckets.key(w) + 1;
      buckets.move(w, key);
      high = std::max(high, key);
    });
  }
  return order;
}

}  // namespace

std::vector<std::size_t> column_degrees(const Pattern& p) {
  std::vector<std::size_t> degree(p.cols(), 0), mark(p.cols(), no_index);
  for (std::size_t c = 0; c < p.cols(); ++c) for_each_neighbour(p, c, mark, c, [&](std::size_t) { ++degree[c]; });
  return degree;
}

namespace {

// The ordering from degrees already counted (`degree` is unused for natural).
std::vector<std::size_t> ordering_from_degrees(const Pattern& p, ColumnOrdering ordering,
                                               const std::vector<std::size_t>& degree) {
  switch (ordering) {
    case ColumnOrdering::natural: {
      std::vector<std::size_t> order(p.cols());
      std::iota(order.begin(), order.end(), 0);
      return order;
    }
    case ColumnOrdering::largest_first: return largest_first(degree);
    case ColumnOrdering::smallest_last: return smallest_last(p, degree);
    case ColumnOrdering::incidence_degree: return incidence_degree(p, degree);
  }
  return {};
}

// Greedy colouring in the given order.
Coloring color_in_order(const Pattern& p, ColumnOrdering ordering, const std::vector<std::size_t>& order);

}  // namespace

std::vector<std::size_t> column_ordering(const Pattern& p, ColumnOrdering ordering) {
  return ordering_from_degrees(p, ordering,
                               ordering == ColumnOrdering::natural ? std::vector<std::size_t>{} : column_degrees(p));
}

Coloring color_columns(const Pattern& p, ColumnOrdering ordering) {
  return color_in_order(p, ordering, column_ordering(p, ordering));
}

namespace {

Coloring color_in_order(const Pattern& p, ColumnOrdering ordering, const std::vector<std::size_t>& order) {
  const std::size_t n = p.cols();
  Coloring out;
  out.ordering = ordering;
  out.color.assign(n, no_index);
  std::vector<std::size_t> forbidden;  // forbidden[colour] == stamp: used by a neighbour
  std::vector<std::size_t> mark(n, no_index);
  for (std::size_t k = 0; k < n; ++k) {
    const std::size_t c = order[k];
    for_each_neighbour(p, c, mark, k, [&](std::size_t w) {
      if (out.color[w] != no_index) forbidden[out.color[w]] = k;
    });
    std::size_t colour = 0;
    while (colour < forbidden.size() && forbidden[colour] == k) ++colour;
    if (colour == forbidden.size()) forbidden.push_back(no_index);
    out.color[c] = colour;
    out.colors = std::max(out.colors, colour + 1);
  }
  // Colour groups (counting sort: columns ascending within a colour).
  out.group_ptr.assign(out.colors + 1, 0);
  for (const std::size_t colour : out.color) ++out.group_ptr[colour + 1];
  for (std::size_t c = 0; c < out.colors; ++c) out.group_ptr[c + 1] += out.group_ptr[c];
  out.group_columns.resize(n);
  std::vector<std::size_t> next(out.group_ptr.begin(), out.group_ptr.end() - 1);
  for (std::size_t c = 0; c < n; ++c) out.group_columns[next[out.color[c]]++] = c;
  return out;
}

}  // namespace

// The degrees are counted once for the three orderings that need them (a
// count is a sweep over every row's pairs, as costly as a colouring).
std::vector<Coloring> color_columns_all(const Pattern& p) {
  const auto degree = column_degrees(p);
  std::vector<Coloring> out;
  out.reserve(std::size(all_orderings));
  for (const ColumnOrdering ordering : all_orderings)
    out.push_back(color_in_order(p, ordering, ordering_from_degrees(p, ordering, degree)));
  return out;
}

// The default ordering first: when it reaches the lower bound (the longest
// row) no other can have fewer colours, and a tie keeps the default anyway.
Coloring color_columns_best(const Pattern& p) {
  const auto degree = column_degrees(p);
  Coloring best = color_in_order(p, default_ordering, ordering_from_degrees(p, default_ordering, degree));
  if (best.colors <= p.max_row_nnz()) return best;
  for (const ColumnOrdering ordering : all_orderings) {
    if (ordering == default_ordering) continue;
    Coloring c = color_in_order(p, ordering, ordering_from_degrees(p, ordering, degree));
    if (c.colors < best.colors) best = std::move(c);
  }
  return best;
}

bool verify_coloring(const Pattern& p, std::span<const std::size_t> color, std::string* why) {
  if (color.size() != p.cols()) {
    if (why) *why = messages::coloring_size(color.size(), p.cols());
    return false;
  }
  std::size_t colors = 0;
  for (const std::size_t c : color) colors = std::max(colors, c == no_index ? 0 : c + 1);
  for (std::size_t c = 0; c < color.size(); ++c)
    if (color[c] == no_index) {
      if (why) *why = messages::coloring_uncolored(c);
      return false;
    }
  std::vector<std::size_t> owner(colors, no_index), owner_row(colors, no_index);
  for (std::size_t r = 0; r < p.rows(); ++r)
    for (const std::size_t c : p.row(r)) {
      const std::size_t k = color[c];
      if (owner_row[k] == r) {
        if (why) *why = messages::coloring_conflict(r, owner[k], c, k);
        return false;
      }
      owner_row[k] = r;
      owner[k] = c;
    }
  return true;
}

}  // namespace lsdae::structure
