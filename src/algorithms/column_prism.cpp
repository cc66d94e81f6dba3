// The ranks as a prism of the network's columns (column_prism.hpp).
#include "algorithms/column_prism.hpp"

#include <algorithm>
#include <map>
#include <string>

namespace topocoll {

std::optional<ColumnPrism> column_prism_of(const Problem& problem) {
  const NetworkPlacement* placement = problem.network;
  if (placement == nullptr || placement->network == nullptr ||
      placement->host_of_rank.size() != static_cast<std::size_t>(problem.size)) {
    return std::nullopt;
  }
  const network::Network& net = *placement->network;
  if (net.levels.empty()) return std::nullopt;
  // Every host's column and position, numbered in the order of the hosts.
  std::map<std::string, int> column_ids, position_ids;
  std::vector<int> column_of_host(static_cast<std::size_t>(net.host_count()));
  std::vector<int> position_of_host(column_of_host.size());
  for (int host = 0; host < net.host_count(); ++host) {
    const std::vector<std::string>& groups = net.clusters[static_cast<std::size_t>(net.cluster_of(host))].groups;
    if (groups.size() != net.levels.size()) return std::nullopt;
    std::string position;
    for (std::size_t l = 1; l < groups.size(); ++l) position += groups[l] + "/";
    column_of_host[static_cast<std::size_t>(host)] =
        column_ids.try_emplace(groups[0], static_cast<int>(column_ids.size())).first->second;
    position_of_host[static_cast<std::size_t>(host)] =
        position_ids.try_emplace(position, static_cast<int>(position_ids.size())).first->second;
  }
  // The job's columns and positions, in that order.
  std::vector<int> columns, positions;
  for (const int host : placement->host_of_rank) {
    if (host < 0 || host >= net.host_count()) return std::nullopt;
    columns.push_back(column_of_host[static_cast<std::size_t>(host)]);
    positions.push_back(position_of_host[static_cast<std::size_t>(host)]);
  }
  const auto distinct = [](std::vector<int> ids) {
    std::sort(ids.begin(), ids.end());
    ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
    return ids;
  };
  const std::vector<int> job_columns = distinct(columns), job_positions = distinct(positions);
  if (job_columns.size() < 2 || job_columns.size() * job_positions.size() != static_cast<std::size_t>(problem.size)) {
    return std::nullopt;
  }
  ColumnPrism prism;
  prism.columns = static_cast<int>(job_columns.size());
  prism.rank_at.assign(static_cast<std::size_t>(problem.size), -1);
  const auto index_in = [](const std::vector<int>& ids, int id) {
    return static_cast<std::size_t>(std::lower_bound(ids.begin(), ids.end(), id) - ids.begin());
  };
  for (int r = 0; r < problem.size; ++r) {
    const std::size_t at = index_in(job_positions, positions[static_cast<std::size_t>(r)]) * job_columns.size() +
                           index_in(job_columns, columns[static_cast<std::size_t>(r)]);
    if (prism.rank_at[at] >= 0) return std::nullopt;  // two ranks at one place: no prism
    prism.rank_at[at] = r;
  }
  return prism;
}

}  // namespace topocoll
