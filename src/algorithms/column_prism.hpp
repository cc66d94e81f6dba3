// The ranks of a job as a prism of its network's columns: the same positions in every column the
// job uses, one rank at each. On a multi-layer full mesh a column is an outermost group (every
// layer's leaf of that column) and a position a server's layer and slot; rotating the columns
// maps the mesh onto itself (spine {j0, j1} onto {j0 + 1, j1 + 1}, and the spine a server's route
// within its column takes, {j, j + k + 1}, onto its rotated server's). linkaware searches the
// phases that rotate with the columns (linkaware.cpp), a far smaller search than all phases.
#pragma once

#include <optional>
#include <vector>

#include "algorithms/problem.hpp"

namespace topocoll {

struct ColumnPrism {
  int columns = 0;           // 0: none
  std::vector<int> rank_at;  // [position * columns + column]
  int positions() const { return columns == 0 ? 0 : static_cast<int>(rank_at.size()) / columns; }
  int rank(int position, int column) const {
    return rank_at[static_cast<std::size_t>(position) * static_cast<std::size_t>(columns) + static_cast<std::size_t>(column)];
  }
  friend bool operator==(const ColumnPrism&, const ColumnPrism&) = default;
};

// The prism of the problem's ranks on its network (Problem::network): columns are the hosts'
// outermost groups, positions their inner groups' names, both in the order of the network's
// hosts (topocoll-platform mlfm numbers its servers by layer, column and slot, so that is the
// columns' own order). nullopt without a network, with fewer than two columns, or where the
// job's columns do not hold the same positions one rank each.
std::optional<ColumnPrism> column_prism_of(const Problem& problem);

}  // namespace topocoll
