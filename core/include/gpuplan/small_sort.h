// gpuplan/small_sort.h — a stable insertion sort for the short lists the program ranks (the
// catalog's GPUs, the compare rows, a roof's ceilings: at most a few hundred entries).
// libc++'s std::stable_sort instantiates ~3 KB of wasm per comparator (merge, buffered merge,
// sort-move), which the page pays at start-up; this is a few dozen bytes, and its O(n²)
// comparisons take microseconds at these sizes. Equal elements keep their order.
#pragma once

#include <utility>

namespace gpuplan {

template <typename It, typename Less>
void StableSortSmall(It first, It last, Less less) {
  if (first == last) return;
  for (It i = first + 1; i != last; ++i) {
    auto v = std::move(*i);
    It j = i;
    for (; j != first && less(v, *(j - 1)); --j) *j = std::move(*(j - 1));
    *j = std::move(v);
  }
}

}  // namespace gpuplan
